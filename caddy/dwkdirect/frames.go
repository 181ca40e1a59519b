package dwkdirect

import "encoding/binary"

// WebSocket close codes (RFC 6455, 7.4.1 and the IANA registry).
const (
	closeGoingAway      = 1001
	closeServiceRestart = 1012
)

// frames follows WebSocket frame boundaries in one direction of a tunnel
// (RFC 6455, 5.2), from the bytes passing through.
type frames struct {
	hdr     [14]byte
	hdrLen  int
	hdrNeed int
	payload uint64 // payload bytes of the current frame still to pass
}

// feed advances over p.
func (f *frames) feed(p []byte) {
	for len(p) > 0 {
		if f.payload > 0 {
			k := uint64(len(p))
			if k > f.payload {
				k = f.payload
			}
			f.payload -= k
			p = p[k:]
			continue
		}
		f.hdr[f.hdrLen] = p[0]
		f.hdrLen++
		p = p[1:]
		if f.hdrLen == 2 {
			f.hdrNeed = 2
			switch f.hdr[1] & 0x7f {
			case 126:
				f.hdrNeed += 2
			case 127:
				f.hdrNeed += 8
			}
			if f.hdr[1]&0x80 != 0 {
				f.hdrNeed += 4
			}
		}
		if f.hdrLen >= 2 && f.hdrLen == f.hdrNeed {
			switch n := f.hdr[1] & 0x7f; n {
			case 126:
				f.payload = uint64(binary.BigEndian.Uint16(f.hdr[2:4]))
			case 127:
				f.payload = binary.BigEndian.Uint64(f.hdr[2:10])
			default:
				f.payload = uint64(n)
			}
			f.hdrLen, f.hdrNeed = 0, 0
		}
	}
}

// boundary reports whether the bytes so far end a frame.
func (f *frames) boundary() bool { return f.payload == 0 && f.hdrLen == 0 }

// closeFrame is a close frame with code and reason; frames from a client
// (masked) carry a zero mask, which leaves the payload as it is.
func closeFrame(code uint16, reason string, masked bool) []byte {
	payload := make([]byte, 2+len(reason))
	binary.BigEndian.PutUint16(payload, code)
	copy(payload[2:], reason)
	out := []byte{0x88, byte(len(payload))}
	if masked {
		out[1] |= 0x80
		out = append(out, 0, 0, 0, 0)
	}
	return append(out, payload...)
}
