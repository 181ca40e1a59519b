package url

import (
	"strings"

	"github.com/dwk/fleet/appliance/jsworker/webapi/encoding"
)

// parseQuery is the application/x-www-form-urlencoded parser: name and
// value pairs, flattened (name, value, name, value...).
func parseQuery(s string) []string {
	var out []string
	for len(s) > 0 {
		var seq string
		if k := strings.IndexByte(s, '&'); k >= 0 {
			seq, s = s[:k], s[k+1:]
		} else {
			seq, s = s, ""
		}
		if seq == "" {
			continue
		}
		name, value, _ := strings.Cut(seq, "=")
		out = append(out, formDecode(name), formDecode(value))
	}
	return out
}

// formDecode turns '+' into a space and percent-decodes, then decodes the
// bytes as UTF-8 (malformed ones as U+FFFD). A '%' not followed by two
// hex digits stays as it is.
func formDecode(s string) string {
	if strings.IndexByte(s, '%') < 0 && strings.IndexByte(s, '+') < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for k := 0; k < len(s); k++ {
		c := s[k]
		switch {
		case c == '+':
			b = append(b, ' ')
		case c == '%' && k+2 < len(s) && isHex(s[k+1]) && isHex(s[k+2]):
			b = append(b, unhex(s[k+1])<<4|unhex(s[k+2]))
			k += 2
		default:
			b = append(b, c)
		}
	}
	return encoding.DecodeUTF8(b)
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
