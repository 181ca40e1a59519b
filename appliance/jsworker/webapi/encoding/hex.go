package encoding

import "encoding/hex"

// hexEncode is lowercase hex.
func hexEncode(b []byte) string { return hex.EncodeToString(b) }

// hexDecode decodes hex as Node.js's Buffer does: pairs of hex digits of
// either case up to the first pair that is not one; an odd last digit is
// dropped.
func hexDecode(s string) []byte {
	out := make([]byte, 0, len(s)/2)
	for k := 0; k+1 < len(s); k += 2 {
		hi, ok1 := hexValue(s[k])
		lo, ok2 := hexValue(s[k+1])
		if !ok1 || !ok2 {
			break
		}
		out = append(out, hi<<4|lo)
	}
	return out
}

func hexValue(c byte) (byte, bool) {
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
