package encoding

import (
	"unicode/utf8"
)

// utf8Decoder is the WHATWG UTF-8 decoder: each maximal invalid subpart
// of the input is one error (one U+FFFD), which differs from Go's
// one-per-byte. Its state carries an unfinished sequence across chunks.
type utf8Decoder struct {
	needed, seen int
	cp           rune
	lower, upper byte
}

func (d *utf8Decoder) reset() { *d = utf8Decoder{lower: 0x80, upper: 0xBF} }

func (d *utf8Decoder) clean() bool { return d.needed == 0 }

// decode appends the decoding of b to out. fatal stops at the first error
// and reports it; otherwise errors become U+FFFD. With flush, an
// unfinished sequence at the end is an error too.
func (d *utf8Decoder) decode(out []byte, b []byte, flush, fatal bool) ([]byte, bool) {
	if d.lower == 0 {
		d.reset()
	}
	if d.needed == 0 && utf8.Valid(b) {
		return append(out, b...), true
	}
	for k := 0; k < len(b); k++ {
		c := b[k]
		if d.needed == 0 {
			switch {
			case c < 0x80:
				out = append(out, c)
			case 0xC2 <= c && c <= 0xDF:
				d.needed, d.cp = 1, rune(c&0x1F)
			case 0xE0 <= c && c <= 0xEF:
				if c == 0xE0 {
					d.lower = 0xA0
				} else if c == 0xED {
					d.upper = 0x9F
				}
				d.needed, d.cp = 2, rune(c&0x0F)
			case 0xF0 <= c && c <= 0xF4:
				if c == 0xF0 {
					d.lower = 0x90
				} else if c == 0xF4 {
					d.upper = 0x8F
				}
				d.needed, d.cp = 3, rune(c&0x07)
			default:
				if fatal {
					return out, false
				}
				out = utf8.AppendRune(out, utf8.RuneError)
			}
			continue
		}
		if c < d.lower || c > d.upper {
			d.reset()
			if fatal {
				return out, false
			}
			out = utf8.AppendRune(out, utf8.RuneError)
			k-- // the byte starts over
			continue
		}
		d.lower, d.upper = 0x80, 0xBF
		d.cp = d.cp<<6 | rune(c&0x3F)
		d.seen++
		if d.seen == d.needed {
			out = utf8.AppendRune(out, d.cp)
			d.reset()
		}
	}
	if flush && d.needed != 0 {
		d.reset()
		if fatal {
			return out, false
		}
		out = utf8.AppendRune(out, utf8.RuneError)
	}
	return out, true
}

// utf8Encode is the UTF-8 encoding of a JavaScript string s, given as Go
// converted it (lone surrogates already U+FFFD).
func utf8Encode(s string) []byte { return []byte(s) }

// encodeInto writes as much of s as fits whole into dst and returns the
// UTF-16 code units read and the bytes written, as TextEncoder's
// encodeInto does. s is the JavaScript string as Go converted it: a lone
// surrogate is one U+FFFD, one code unit.
func encodeInto(s string, dst []byte) (read, written int) {
	for _, r := range s {
		n := utf8.RuneLen(r)
		if written+n > len(dst) {
			break
		}
		utf8.EncodeRune(dst[written:], r)
		written += n
		if r >= 0x10000 {
			read += 2
		} else {
			read++
		}
	}
	return read, written
}
