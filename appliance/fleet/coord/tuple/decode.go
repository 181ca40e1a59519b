package tuple

import (
	"fmt"
	"math"
)

// Decode parses an encoding produced by Encode. It accepts only canonical
// encodings, so Encode(k) returns b again for the key k it returns; any
// other input yields an error wrapping ErrMalformed.
func Decode(b []byte) (Key, error) {
	k := Key{}
	for pos := 0; pos < len(b); {
		p, n, err := decodePart(b[pos:])
		if err != nil {
			return nil, fmt.Errorf("%w at byte %d: %s", ErrMalformed, pos, err)
		}
		k = append(k, p)
		pos += n
	}
	return k, nil
}

// decodePart decodes the part at the start of b and returns it with the
// number of bytes it used.
func decodePart(b []byte) (any, int, error) {
	switch tag := b[0]; {
	case tag == tagBytes:
		v, n, err := unescape(b[1:])
		return v, n + 1, err
	case tag == tagString:
		v, n, err := unescape(b[1:])
		return string(v), n + 1, err
	case tag >= intZero-8 && tag <= intZero+8:
		return decodeInt(b)
	case tag == tagFloat:
		return decodeFloat(b)
	case tag == tagFalse:
		return false, 1, nil
	case tag == tagTrue:
		return true, 1, nil
	default:
		return nil, 0, fmt.Errorf("unknown type tag 0x%02x", tag)
	}
}

// unescape reads escaped bytes up to the 0x00 terminator and returns them
// with the number of bytes read, terminator included.
func unescape(b []byte) ([]byte, int, error) {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != 0 {
			out = append(out, b[i])
			continue
		}
		if i+1 < len(b) && b[i+1] == 0xFF {
			out = append(out, 0)
			i++
			continue
		}
		return out, i + 1, nil
	}
	return nil, 0, fmt.Errorf("unterminated string or bytes")
}

func decodeInt(b []byte) (any, int, error) {
	tag := int(b[0])
	if tag == intZero {
		return int64(0), 1, nil
	}
	n := tag - intZero
	neg := n < 0
	if neg {
		n = -n
	}
	if len(b) < 1+n {
		return nil, 0, fmt.Errorf("integer needs %d bytes, has %d", n, len(b)-1)
	}
	var mag uint64
	for _, c := range b[1 : 1+n] {
		mag = mag<<8 | uint64(c)
	}
	if neg {
		mag = ^mag & (math.MaxUint64 >> (64 - 8*n))
	}
	if mag>>(8*(n-1)) == 0 {
		return nil, 0, fmt.Errorf("integer of %d bytes has a leading zero byte", n)
	}
	switch {
	case !neg && mag > math.MaxInt64:
		return nil, 0, fmt.Errorf("integer %d overflows int64", mag)
	case neg && mag > 1<<63:
		return nil, 0, fmt.Errorf("integer -%d overflows int64", mag)
	case neg:
		return -int64(mag), 1 + n, nil // -int64(1<<63) wraps to MinInt64
	}
	return int64(mag), 1 + n, nil
}

func decodeFloat(b []byte) (any, int, error) {
	if len(b) < 9 {
		return nil, 0, fmt.Errorf("float needs 8 bytes, has %d", len(b)-1)
	}
	var bits uint64
	for _, c := range b[1:9] {
		bits = bits<<8 | uint64(c)
	}
	if bits>>63 == 1 {
		bits &^= 1 << 63
	} else {
		bits = ^bits
	}
	f := math.Float64frombits(bits)
	if f != f && bits != canonicalNaN {
		return nil, 0, fmt.Errorf("non-canonical NaN 0x%016x", bits)
	}
	return f, 9, nil
}
