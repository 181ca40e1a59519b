package url

import "github.com/dop251/goja"

// toUSVString replaces each lone surrogate of the string s with U+FFFD,
// as WebIDL converts a USVString argument; a string without lone
// surrogates is returned as it is. The caller converts other values with
// String first.
func toUSVString(rt *goja.Runtime, v goja.Value) goja.Value {
	s, ok := v.(goja.String)
	if !ok {
		return rt.ToValue(v.String())
	}
	n := s.Length()
	lone := -1
	for k := 0; k < n && lone < 0; k++ {
		c := s.CharAt(k)
		switch {
		case c < 0xD800 || c > 0xDFFF:
		case c <= 0xDBFF && k+1 < n && isTrail(s.CharAt(k+1)):
			k++
		default:
			lone = k
		}
	}
	if lone < 0 {
		return s
	}
	units := make([]uint16, n)
	for k := 0; k < n; k++ {
		units[k] = s.CharAt(k)
	}
	for k := lone; k < n; k++ {
		c := units[k]
		switch {
		case c < 0xD800 || c > 0xDFFF:
		case c <= 0xDBFF && k+1 < n && isTrail(units[k+1]):
			k++
		default:
			units[k] = 0xFFFD
		}
	}
	return goja.StringFromUTF16(units)
}

func isTrail(c uint16) bool { return 0xDC00 <= c && c <= 0xDFFF }
