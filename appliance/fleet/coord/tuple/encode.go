package tuple

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Key is a tuple key: a list of parts, each a string, []byte, int64,
// float64 or bool (int is accepted as int64). The empty key is the prefix
// of every key.
type Key []any

// Type tags. The integer tags span intZero-8 to intZero+8.
const (
	tagBytes  = 0x01
	tagString = 0x02
	intZero   = 0x14
	tagFloat  = 0x21
	tagFalse  = 0x26
	tagTrue   = 0x27
)

// canonicalNaN is the only NaN bit pattern keys hold (math.NaN()'s).
const canonicalNaN = 0x7FF8000000000001

// Sentinel errors. Test with errors.Is.
var (
	// ErrInvalidPart: Encode met a part of an unsupported type.
	ErrInvalidPart = errors.New("tuple: key part must be string, []byte, int64, float64 or bool")
	// ErrMalformed: Decode met bytes that Encode does not produce.
	ErrMalformed = errors.New("tuple: malformed key encoding")
)

// Encode returns the order-preserving encoding of k. It fails with
// ErrInvalidPart if a part has another type.
func Encode(k Key) ([]byte, error) {
	return Append(make([]byte, 0, encodedSizeHint(k)), k)
}

// MustEncode is Encode for keys built from constants; it panics on an
// invalid part.
func MustEncode(k Key) []byte {
	b, err := Encode(k)
	if err != nil {
		panic(err)
	}
	return b
}

// Append appends the encoding of k to dst. Concatenating the encodings of
// two keys gives the encoding of their concatenation.
func Append(dst []byte, k Key) ([]byte, error) {
	for i, p := range k {
		var err error
		if dst, err = appendPart(dst, p); err != nil {
			return nil, fmt.Errorf("part %d: %w", i, err)
		}
	}
	return dst, nil
}

func appendPart(dst []byte, p any) ([]byte, error) {
	switch v := p.(type) {
	case []byte:
		return appendEscaped(append(dst, tagBytes), v), nil
	case string:
		return appendEscaped(append(dst, tagString), v), nil
	case int64:
		return appendInt(dst, v), nil
	case int:
		return appendInt(dst, int64(v)), nil
	case float64:
		return appendFloat(dst, v), nil
	case bool:
		if v {
			return append(dst, tagTrue), nil
		}
		return append(dst, tagFalse), nil
	}
	return nil, fmt.Errorf("%w, not %T", ErrInvalidPart, p)
}

// appendEscaped appends s with 0x00 escaped as 0x00 0xFF and a 0x00
// terminator.
func appendEscaped[T string | []byte](dst []byte, s T) []byte {
	for i := 0; i < len(s); i++ {
		dst = append(dst, s[i])
		if s[i] == 0 {
			dst = append(dst, 0xFF)
		}
	}
	return append(dst, 0)
}

func appendInt(dst []byte, v int64) []byte {
	if v == 0 {
		return append(dst, intZero)
	}
	mag := uint64(v)
	if v < 0 {
		mag = -mag // two's complement: correct for math.MinInt64 too
	}
	n := byteLen(mag)
	if v > 0 {
		dst = append(dst, byte(intZero+n))
	} else {
		dst = append(dst, byte(intZero-n))
		mag = ^mag
	}
	for i := n - 1; i >= 0; i-- {
		dst = append(dst, byte(mag>>(8*i)))
	}
	return dst
}

// byteLen is the number of bytes needed for a nonzero magnitude.
func byteLen(m uint64) int {
	n := 0
	for ; m != 0; m >>= 8 {
		n++
	}
	return n
}

func appendFloat(dst []byte, f float64) []byte {
	bits := math.Float64bits(f)
	if f != f {
		bits = canonicalNaN
	}
	if bits>>63 == 1 {
		bits = ^bits
	} else {
		bits |= 1 << 63
	}
	dst = append(dst, tagFloat)
	for i := 7; i >= 0; i-- {
		dst = append(dst, byte(bits>>(8*i)))
	}
	return dst
}

func encodedSizeHint(k Key) int {
	n := 0
	for _, p := range k {
		switch v := p.(type) {
		case string:
			n += len(v) + 2
		case []byte:
			n += len(v) + 2
		default:
			n += 9
		}
	}
	return n
}

// String renders k for messages, e.g. ("kv", 0x01ff, 42, 1.5, true).
func (k Key) String() string {
	var b strings.Builder
	b.WriteByte('(')
	for i, p := range k {
		if i > 0 {
			b.WriteString(", ")
		}
		switch v := p.(type) {
		case string:
			b.WriteString(strconv.Quote(v))
		case []byte:
			fmt.Fprintf(&b, "0x%x", v)
		case float64:
			// A float always shows as one: 1.0, never 1, which is an int.
			s := strconv.FormatFloat(v, 'g', -1, 64)
			if !strings.ContainsAny(s, ".eIN") {
				s += ".0"
			}
			b.WriteString(s)
		default:
			fmt.Fprint(&b, v)
		}
	}
	b.WriteByte(')')
	return b.String()
}
