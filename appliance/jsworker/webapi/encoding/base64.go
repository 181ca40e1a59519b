package encoding

import (
	"encoding/base64"
	"unicode/utf8"
)

// isASCIIWhitespace is the Infra standard's ASCII whitespace.
func isASCIIWhitespace(c byte) bool {
	return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
}

// forgivingBase64Decode is the Infra standard's forgiving-base64 decode
// (atob's): ASCII whitespace is ignored, padding is optional but must be
// right when present, and anything else outside the standard alphabet is
// an error (ok false).
func forgivingBase64Decode(s string) (b []byte, ok bool) {
	clean := make([]byte, 0, len(s))
	for k := 0; k < len(s); k++ {
		if c := s[k]; !isASCIIWhitespace(c) {
			clean = append(clean, c)
		}
	}
	if len(clean)%4 == 0 {
		switch {
		case len(clean) >= 2 && clean[len(clean)-1] == '=' && clean[len(clean)-2] == '=':
			clean = clean[:len(clean)-2]
		case len(clean) >= 1 && clean[len(clean)-1] == '=':
			clean = clean[:len(clean)-1]
		}
	}
	if len(clean)%4 == 1 {
		return nil, false
	}
	for _, c := range clean {
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/') {
			return nil, false
		}
	}
	// Leftover bits in the last character must be ignored, which Go's
	// strict decoder would reject: decode without strictness.
	out := make([]byte, base64.RawStdEncoding.DecodedLen(len(clean)))
	n, err := base64.RawStdEncoding.Decode(out, clean)
	if err != nil {
		return nil, false
	}
	return out[:n], true
}

// lenientBase64Value maps both alphabets (standard and URL-safe) to their
// 6-bit values; 0xFF marks other bytes.
var lenientBase64Value = func() (t [256]byte) {
	for k := range t {
		t[k] = 0xFF
	}
	const std = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for k := 0; k < len(std); k++ {
		t[std[k]] = byte(k)
	}
	t['-'], t['_'] = 62, 63
	return t
}()

// lenientBase64Decode decodes base64 as Node.js's Buffer does: either
// alphabet, characters outside them skipped, decoding stops at the first
// '='. It never fails.
func lenientBase64Decode(s string) []byte {
	out := make([]byte, 0, len(s)*3/4+3)
	var acc uint32
	n := 0
	for k := 0; k < len(s); k++ {
		c := s[k]
		if c == '=' {
			break
		}
		v := lenientBase64Value[c]
		if v == 0xFF {
			continue
		}
		acc = acc<<6 | uint32(v)
		n++
		if n == 4 {
			out = append(out, byte(acc>>16), byte(acc>>8), byte(acc))
			acc, n = 0, 0
		}
	}
	switch n {
	case 2:
		out = append(out, byte(acc>>4))
	case 3:
		out = append(out, byte(acc>>10), byte(acc>>2))
	}
	return out
}

// base64Encode is standard base64 with padding, or with url the URL-safe
// alphabet without padding (Node.js's "base64url").
func base64Encode(b []byte, url bool) string {
	if url {
		return base64.RawURLEncoding.EncodeToString(b)
	}
	return base64.StdEncoding.EncodeToString(b)
}

// latin1Bytes returns the bytes of a string whose code points are all at
// most U+00FF (btoa's input), or ok false.
func latin1Bytes(s string) (b []byte, ok bool) {
	b = make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xFF {
			return nil, false
		}
		b = append(b, byte(r))
	}
	return b, true
}

// latin1String is the string whose code points are the bytes of b, in
// UTF-8 for Go.
func latin1String(b []byte) string {
	ascii := true
	for _, c := range b {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return string(b)
	}
	out := make([]byte, 0, len(b)*2)
	for _, c := range b {
		out = utf8.AppendRune(out, rune(c))
	}
	return string(out)
}
