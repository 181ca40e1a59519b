package node

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// installBuffer adds the byte work of node:buffer: encoding and decoding
// strings in Node's encodings, searching, comparing and filling. The
// prelude passes encodings already normalised to one of utf8, utf16le,
// latin1, ascii, base64, base64url and hex.
func installBuffer(iso *jsrt.Isolate, n *goja.Object) {
	rt := iso.Runtime()
	view := func(v goja.Value, what string) []byte {
		b, ok := iso.Bytes(v)
		if !ok {
			iso.Throw(jsrt.Errorf("TypeError", "%s must be a Buffer, a TypedArray or a DataView", what))
		}
		return b
	}
	n.Set("encode", func(c goja.FunctionCall) goja.Value {
		return iso.NewArrayBuffer(encodeString(c.Argument(0), c.Argument(1).String()))
	})
	n.Set("byteLength", func(c goja.FunctionCall) goja.Value {
		s := c.Argument(0)
		switch enc := c.Argument(1).String(); enc {
		case "utf8":
			return rt.ToValue(utf8Length(s))
		case "latin1", "ascii":
			return rt.ToValue(stringLength(s))
		case "utf16le":
			return rt.ToValue(2 * stringLength(s))
		default:
			return rt.ToValue(len(encodeString(s, enc)))
		}
	})
	n.Set("decode", func(c goja.FunctionCall) goja.Value {
		b := view(c.Argument(0), "the buffer")
		start, end := clamp(c.Argument(2), 0, len(b)), clamp(c.Argument(3), len(b), len(b))
		if start >= end {
			return rt.ToValue("")
		}
		return decodeBytes(rt, b[start:end], c.Argument(1).String())
	})
	// write(view, string, offset, length, encoding) writes the encoded
	// string at offset, at most length bytes and only whole characters,
	// and returns the bytes written.
	n.Set("write", func(c goja.FunctionCall) goja.Value {
		b := view(c.Argument(0), "the buffer")
		enc := c.Argument(4).String()
		off := clamp(c.Argument(2), 0, len(b))
		max := clamp(c.Argument(3), len(b)-off, len(b)-off)
		data := encodeString(c.Argument(1), enc)
		if len(data) > max {
			data = data[:max]
			switch enc {
			case "utf8":
				data = data[:wholeUTF8(data)]
			case "utf16le":
				data = data[:len(data)&^1]
			}
		}
		return rt.ToValue(copy(b[off:], data))
	})
	// indexOf(haystack, needle, byteOffset, last) finds needle's bytes at
	// or after byteOffset, or (last) at or before it.
	n.Set("indexOf", func(c goja.FunctionCall) goja.Value {
		hay := view(c.Argument(0), "the buffer")
		needle := view(c.Argument(1), "the value")
		off := clamp(c.Argument(2), 0, len(hay))
		if c.Argument(3).ToBoolean() {
			end := off + len(needle)
			if end > len(hay) {
				end = len(hay)
			}
			return rt.ToValue(bytes.LastIndex(hay[:end], needle))
		}
		i := bytes.Index(hay[off:], needle)
		if i >= 0 {
			i += off
		}
		return rt.ToValue(i)
	})
	n.Set("compare", func(c goja.FunctionCall) goja.Value {
		return rt.ToValue(bytes.Compare(view(c.Argument(0), "the first buffer"), view(c.Argument(1), "the second buffer")))
	})
	// fill(view, pattern, start, end) repeats pattern's bytes over
	// view[start:end].
	n.Set("fill", func(c goja.FunctionCall) goja.Value {
		b := view(c.Argument(0), "the buffer")
		p := view(c.Argument(1), "the fill value")
		start, end := clamp(c.Argument(2), 0, len(b)), clamp(c.Argument(3), len(b), len(b))
		if len(p) == 0 || start >= end {
			return goja.Undefined()
		}
		dst := b[start:end]
		k := copy(dst, p)
		for k < len(dst) {
			k += copy(dst[k:], dst[:k])
		}
		return goja.Undefined()
	})
	n.Set("isUtf8", func(c goja.FunctionCall) goja.Value {
		return rt.ToValue(utf8.Valid(view(c.Argument(0), "the input")))
	})
	n.Set("isAscii", func(c goja.FunctionCall) goja.Value {
		for _, x := range view(c.Argument(0), "the input") {
			if x >= 0x80 {
				return rt.ToValue(false)
			}
		}
		return rt.ToValue(true)
	})
}

// clamp reads v as an integer index into [0, max], def when undefined.
func clamp(v goja.Value, def, max int) int {
	if v == nil || goja.IsUndefined(v) {
		return def
	}
	f := v.ToFloat()
	switch {
	case f != f || f < 0: // NaN too
		return 0
	case f > float64(max):
		return max
	}
	return int(f)
}

// stringLength is the length of a JavaScript string in UTF-16 code units.
func stringLength(v goja.Value) int {
	if s, ok := v.(goja.String); ok {
		return s.Length()
	}
	return len(utf16.Encode([]rune(v.String())))
}

// codeUnits returns the UTF-16 code units of a JavaScript string, lone
// surrogates included.
func codeUnits(v goja.Value) []uint16 {
	s, ok := v.(goja.String)
	if !ok {
		return utf16.Encode([]rune(v.String()))
	}
	u := make([]uint16, s.Length())
	for k := range u {
		u[k] = s.CharAt(k)
	}
	return u
}

// utf8Length is the byte length of v in UTF-8, a lone surrogate counting
// as the three bytes of U+FFFD.
func utf8Length(v goja.Value) int {
	s := v.String() // goja replaces lone surrogates with U+FFFD
	return len(s)
}

// encodeString encodes a JavaScript string as Node does.
func encodeString(v goja.Value, enc string) []byte {
	switch enc {
	case "utf16le":
		u := codeUnits(v)
		b := make([]byte, 2*len(u))
		for k, x := range u {
			b[2*k], b[2*k+1] = byte(x), byte(x>>8)
		}
		return b
	case "latin1", "ascii":
		u := codeUnits(v)
		b := make([]byte, len(u))
		for k, x := range u {
			b[k] = byte(x)
		}
		return b
	case "hex":
		return decodeHex(v.String())
	case "base64", "base64url":
		return decodeBase64(v.String())
	}
	return []byte(v.String())
}

// decodeHex decodes pairs of hex digits up to the first pair that is not
// one, as Node does.
func decodeHex(s string) []byte {
	b := make([]byte, 0, len(s)/2)
	for k := 0; k+1 < len(s); k += 2 {
		hi, ok1 := unhex(s[k])
		lo, ok2 := unhex(s[k+1])
		if !ok1 || !ok2 {
			break
		}
		b = append(b, hi<<4|lo)
	}
	return b
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// base64Values maps both base64 alphabets to their values; 0xff marks
// bytes that are not in either.
var base64Values = func() [256]byte {
	var t [256]byte
	for k := range t {
		t[k] = 0xff
	}
	for k, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/" {
		t[c] = byte(k)
	}
	t['-'], t['_'] = 62, 63
	return t
}()

// decodeBase64 decodes base64 or base64url leniently, as Node does:
// characters outside both alphabets are skipped, padding is optional, and
// the first '=' ends the data.
func decodeBase64(s string) []byte {
	b := make([]byte, 0, len(s)*3/4)
	var acc uint32
	n := 0
	for k := 0; k < len(s); k++ {
		c := s[k]
		if c == '=' {
			break
		}
		v := base64Values[c]
		if v == 0xff {
			continue
		}
		acc = acc<<6 | uint32(v)
		n++
		if n == 4 {
			b = append(b, byte(acc>>16), byte(acc>>8), byte(acc))
			acc, n = 0, 0
		}
	}
	switch n {
	case 2:
		b = append(b, byte(acc>>4))
	case 3:
		b = append(b, byte(acc>>10), byte(acc>>2))
	}
	return b
}

// wholeUTF8 is the length of the longest prefix of b that ends at a
// character boundary.
func wholeUTF8(b []byte) int {
	for k := len(b) - 1; k >= 0 && k >= len(b)-3; k-- {
		c := b[k]
		if c < 0x80 {
			return len(b)
		}
		if c >= 0xc0 { // a lead byte: is its sequence complete?
			need := 2
			if c >= 0xf0 {
				need = 4
			} else if c >= 0xe0 {
				need = 3
			}
			if len(b)-k >= need {
				return len(b)
			}
			return k
		}
	}
	return len(b)
}

// decodeBytes decodes b in enc into a JavaScript string.
func decodeBytes(rt *goja.Runtime, b []byte, enc string) goja.Value {
	switch enc {
	case "hex":
		return rt.ToValue(hex.EncodeToString(b))
	case "base64":
		return rt.ToValue(base64.StdEncoding.EncodeToString(b))
	case "base64url":
		return rt.ToValue(base64.RawURLEncoding.EncodeToString(b))
	case "latin1":
		if isASCII(b) {
			return rt.ToValue(string(b))
		}
		u := make([]uint16, len(b))
		for k, x := range b {
			u[k] = uint16(x)
		}
		return goja.StringFromUTF16(u)
	case "ascii":
		out := make([]byte, len(b))
		for k, x := range b {
			out[k] = x & 0x7f
		}
		return rt.ToValue(string(out))
	case "utf16le":
		u := make([]uint16, len(b)/2)
		for k := range u {
			u[k] = uint16(b[2*k]) | uint16(b[2*k+1])<<8
		}
		return goja.StringFromUTF16(u)
	}
	if isASCII(b) {
		return rt.ToValue(string(b))
	}
	return goja.StringFromUTF16(decodeUTF8(b))
}

func isASCII(b []byte) bool {
	for _, x := range b {
		if x >= 0x80 {
			return false
		}
	}
	return true
}

// decodeUTF8 decodes b into UTF-16 code units as the WHATWG Encoding
// standard does: each maximal invalid subsequence becomes one U+FFFD.
func decodeUTF8(b []byte) []uint16 {
	u := make([]uint16, 0, len(b))
	for k := 0; k < len(b); {
		c := b[k]
		if c < 0x80 {
			u = append(u, uint16(c))
			k++
			continue
		}
		var need int
		var cp rune
		lower, upper := byte(0x80), byte(0xbf)
		switch {
		case c >= 0xc2 && c <= 0xdf:
			need, cp = 1, rune(c&0x1f)
		case c >= 0xe0 && c <= 0xef:
			need, cp = 2, rune(c&0x0f)
			if c == 0xe0 {
				lower = 0xa0
			} else if c == 0xed {
				upper = 0x9f
			}
		case c >= 0xf0 && c <= 0xf4:
			need, cp = 3, rune(c&0x07)
			if c == 0xf0 {
				lower = 0x90
			} else if c == 0xf4 {
				upper = 0x8f
			}
		default:
			u = append(u, 0xfffd)
			k++
			continue
		}
		j := k + 1
		ok := true
		for n := 0; n < need; n++ {
			if j >= len(b) || b[j] < lower || b[j] > upper {
				ok = false
				break
			}
			cp = cp<<6 | rune(b[j]&0x3f)
			lower, upper = 0x80, 0xbf
			j++
		}
		k = j
		if !ok {
			u = append(u, 0xfffd)
			continue
		}
		if cp >= 0x10000 {
			r1, r2 := utf16.EncodeRune(cp)
			u = append(u, uint16(r1), uint16(r2))
		} else {
			u = append(u, uint16(cp))
		}
	}
	return u
}
