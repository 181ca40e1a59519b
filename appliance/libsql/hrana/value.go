package hrana

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the type of a SQLite value as Hrana spells it.
type Kind uint8

// The value kinds. The zero Kind marks a missing value, which decoding
// reports as a protocol error rather than treating it as NULL.
const (
	KindNone Kind = iota
	KindNull
	KindInteger
	KindFloat
	KindText
	KindBlob
)

// String returns the Hrana type tag of k ("integer").
func (k Kind) String() string {
	switch k {
	case KindNull:
		return "null"
	case KindInteger:
		return "integer"
	case KindFloat:
		return "float"
	case KindText:
		return "text"
	case KindBlob:
		return "blob"
	}
	return "none"
}

// Value is a SQLite value: {"type":"null"}, {"type":"integer","value":"42"},
// {"type":"float","value":1.5}, {"type":"text","value":"hi"} or
// {"type":"blob","base64":"aGk"}. Only the field matching Kind is meaningful.
type Value struct {
	Kind  Kind
	Int   int64
	Float float64
	Text  string
	Blob  []byte
}

// Null returns the SQL NULL value.
func Null() Value { return Value{Kind: KindNull} }

// Integer returns an integer value.
func Integer(i int64) Value { return Value{Kind: KindInteger, Int: i} }

// Float returns a float value.
func Float(f float64) Value { return Value{Kind: KindFloat, Float: f} }

// Text returns a text value.
func Text(s string) Value { return Value{Kind: KindText, Text: s} }

// Blob returns a blob value; a nil b is an empty blob, not NULL.
func Blob(b []byte) Value {
	if b == nil {
		b = []byte{}
	}
	return Value{Kind: KindBlob, Blob: b}
}

// Go returns v as nil, int64, float64, string or []byte.
func (v Value) Go() any {
	switch v.Kind {
	case KindInteger:
		return v.Int
	case KindFloat:
		return v.Float
	case KindText:
		return v.Text
	case KindBlob:
		return v.Blob
	}
	return nil
}

// String renders v for messages and tests.
func (v Value) String() string {
	switch v.Kind {
	case KindInteger:
		return strconv.FormatInt(v.Int, 10)
	case KindFloat:
		return strconv.FormatFloat(v.Float, 'g', -1, 64)
	case KindText:
		return strconv.Quote(v.Text)
	case KindBlob:
		return fmt.Sprintf("x'%x'", v.Blob)
	case KindNull:
		return "NULL"
	}
	return "<none>"
}

// MarshalJSON encodes v as a Hrana Value. A value with KindNone is an error.
func (v Value) MarshalJSON() ([]byte, error) {
	if v.Kind == KindNone || v.Kind > KindBlob {
		return nil, fmt.Errorf("hrana: cannot encode a value of kind %d", v.Kind)
	}
	return v.AppendJSON(make([]byte, 0, 32)), nil
}

// AppendJSON appends the JSON encoding of v to b. Floats that JSON cannot
// represent (±Inf) are clamped to ±math.MaxFloat64 so that every client can
// still parse the response; SQLite never produces NaN.
func (v Value) AppendJSON(b []byte) []byte {
	switch v.Kind {
	case KindInteger:
		b = append(b, `{"type":"integer","value":"`...)
		b = strconv.AppendInt(b, v.Int, 10)
		return append(b, `"}`...)
	case KindFloat:
		b = append(b, `{"type":"float","value":`...)
		b = appendFloat(b, v.Float)
		return append(b, '}')
	case KindText:
		b = append(b, `{"type":"text","value":`...)
		b = appendString(b, v.Text)
		return append(b, '}')
	case KindBlob:
		b = append(b, `{"type":"blob","base64":"`...)
		b = base64.RawStdEncoding.AppendEncode(b, v.Blob)
		return append(b, `"}`...)
	default:
		return append(b, `{"type":"null"}`...)
	}
}

// wireValue is the JSON shape of a Value while decoding.
type wireValue struct {
	Type   *string         `json:"type"`
	Value  json.RawMessage `json:"value"`
	Base64 *string         `json:"base64"`
}

// UnmarshalJSON decodes a Hrana Value. It is strict about types (an integer
// must be a decimal string, a float a JSON number) and lenient about blob
// padding, as sqld is.
func (v *Value) UnmarshalJSON(data []byte) error {
	var w wireValue
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("value: %w", err)
	}
	if w.Type == nil {
		return fmt.Errorf("value: missing \"type\"")
	}
	switch *w.Type {
	case "null":
		*v = Null()
	case "integer":
		var s string
		if err := unmarshalField(w.Value, &s); err != nil {
			return fmt.Errorf("integer value must be a decimal integer as a string: %w", err)
		}
		i, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("integer value %q is not a 64-bit decimal integer", s)
		}
		*v = Integer(i)
	case "float":
		var f float64
		if err := unmarshalField(w.Value, &f); err != nil {
			return fmt.Errorf("float value must be a JSON number: %w", err)
		}
		*v = Float(f)
	case "text":
		var s string
		if err := unmarshalField(w.Value, &s); err != nil {
			return fmt.Errorf("text value must be a JSON string: %w", err)
		}
		*v = Text(s)
	case "blob":
		if w.Base64 == nil {
			return fmt.Errorf("blob value needs a \"base64\" string")
		}
		raw, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(*w.Base64, "="))
		if err != nil {
			return fmt.Errorf("blob value is not valid base64: %w", err)
		}
		*v = Blob(raw)
	default:
		return fmt.Errorf("unknown value type %q", *w.Type)
	}
	return nil
}

// unmarshalField decodes a required, non-null JSON field.
func unmarshalField(raw json.RawMessage, dst any) error {
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return fmt.Errorf("missing \"value\"")
	}
	return json.Unmarshal(raw, dst)
}

// appendFloat appends f the way encoding/json does, clamping infinities.
func appendFloat(b []byte, f float64) []byte {
	switch {
	case math.IsInf(f, 1):
		f = math.MaxFloat64
	case math.IsInf(f, -1):
		f = -math.MaxFloat64
	case math.IsNaN(f):
		return append(b, '0')
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// Turn "1e-07" into "1e-7", like encoding/json.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD,
// as with encoding/json.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
