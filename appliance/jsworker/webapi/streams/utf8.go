package streams

import (
	"errors"
	"unicode/utf8"
)

// errInvalidUTF8 is what a fatal decoder fails with.
var errInvalidUTF8 = errors.New("The encoded data was not valid for encoding utf-8")

// utf8Decoder is the Encoding standard's UTF-8 decoder: invalid input
// becomes U+FFFD, one for each maximal invalid subsequence (or an error
// when fatal), a sequence split across chunks is held until the next
// one, and a leading byte order mark is dropped unless ignoreBOM.
type utf8Decoder struct {
	fatal, ignoreBOM bool

	bomSeen      bool
	codePoint    rune
	bytesNeeded  int
	bytesSeen    int
	lower, upper byte
}

func newUTF8Decoder(fatal, ignoreBOM bool) *utf8Decoder {
	return &utf8Decoder{fatal: fatal, ignoreBOM: ignoreBOM, lower: 0x80, upper: 0xBF}
}

// decode decodes b, the next piece of the stream; with flush it is the
// last, and a sequence left incomplete is an error.
func (d *utf8Decoder) decode(b []byte, flush bool) (string, error) {
	if d.bytesNeeded == 0 && utf8.Valid(b) {
		if !d.bomSeen && len(b) > 0 {
			d.bomSeen = true
			if !d.ignoreBOM && len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
				b = b[3:]
			}
		}
		return string(b), nil
	}
	out := make([]byte, 0, len(b)+3)
	for i := 0; i < len(b); {
		c := b[i]
		if d.bytesNeeded == 0 {
			i++
			switch {
			case c < 0x80:
				out = d.emit(out, rune(c))
			case c >= 0xC2 && c <= 0xDF:
				d.bytesNeeded, d.codePoint = 1, rune(c&0x1F)
			case c >= 0xE0 && c <= 0xEF:
				if c == 0xE0 {
					d.lower = 0xA0
				} else if c == 0xED {
					d.upper = 0x9F
				}
				d.bytesNeeded, d.codePoint = 2, rune(c&0x0F)
			case c >= 0xF0 && c <= 0xF4:
				if c == 0xF0 {
					d.lower = 0x90
				} else if c == 0xF4 {
					d.upper = 0x8F
				}
				d.bytesNeeded, d.codePoint = 3, rune(c&0x07)
			default:
				if d.fatal {
					return "", errInvalidUTF8
				}
				out = d.emit(out, utf8.RuneError)
			}
			continue
		}
		if c < d.lower || c > d.upper {
			// The byte is not consumed: it starts what comes next.
			d.reset()
			if d.fatal {
				return "", errInvalidUTF8
			}
			out = d.emit(out, utf8.RuneError)
			continue
		}
		i++
		d.lower, d.upper = 0x80, 0xBF
		d.codePoint = d.codePoint<<6 | rune(c&0x3F)
		d.bytesSeen++
		if d.bytesSeen == d.bytesNeeded {
			cp := d.codePoint
			d.reset()
			out = d.emit(out, cp)
		}
	}
	if flush && d.bytesNeeded != 0 {
		d.reset()
		if d.fatal {
			return "", errInvalidUTF8
		}
		out = d.emit(out, utf8.RuneError)
	}
	if flush {
		d.bomSeen = false
	}
	return string(out), nil
}

func (d *utf8Decoder) reset() {
	d.codePoint, d.bytesNeeded, d.bytesSeen = 0, 0, 0
	d.lower, d.upper = 0x80, 0xBF
}

func (d *utf8Decoder) emit(out []byte, r rune) []byte {
	if !d.bomSeen {
		d.bomSeen = true
		if r == 0xFEFF && !d.ignoreBOM {
			return out
		}
	}
	return utf8.AppendRune(out, r)
}

// decodeUTF8 is UTF-8 decode of a whole body: replacement characters for
// invalid input and a leading BOM dropped.
func decodeUTF8(b []byte) string {
	s, _ := newUTF8Decoder(false, false).decode(b, true)
	return s
}
