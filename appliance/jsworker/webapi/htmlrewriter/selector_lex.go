package htmlrewriter

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The lexical pieces of CSS selectors: identifiers and strings with their
// escapes, and the an+b notation.

func isNameByte(c byte) bool {
	return c == '-' || c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}

func isNameStartByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// validEscape says whether a backslash at i starts an escape (it does
// unless a newline or the end follows).
func validEscape(s string, i int) bool {
	return i+1 < len(s) && s[i] == '\\' && s[i+1] != '\n' && s[i+1] != '\r' && s[i+1] != '\f'
}

// identStart says whether an identifier starts at the current position.
func (p *selParser) identStart() bool {
	s, i := p.src, p.pos
	if i >= len(s) {
		return false
	}
	switch c := s[i]; {
	case isNameStartByte(c):
		return true
	case c == '\\':
		return validEscape(s, i)
	case c == '-':
		return i+1 < len(s) && (isNameStartByte(s[i+1]) || s[i+1] == '-' || validEscape(s, i+1))
	}
	return false
}

// ident reads an identifier (identStart must be true), resolving escapes.
func (p *selParser) ident() (string, error) {
	var b strings.Builder
	s := p.src
	for p.pos < len(s) {
		c := s[p.pos]
		switch {
		case isNameByte(c):
			b.WriteByte(c)
			p.pos++
		case validEscape(s, p.pos):
			b.WriteRune(p.escape())
		default:
			return b.String(), nil
		}
	}
	return b.String(), nil
}

// escape reads the escape at a backslash and returns its code point.
func (p *selParser) escape() rune {
	s := p.src
	p.pos++ // the backslash
	if !isHex(s[p.pos]) {
		r, n := utf8.DecodeRuneInString(s[p.pos:])
		p.pos += n
		return r
	}
	start := p.pos
	for p.pos < len(s) && p.pos-start < 6 && isHex(s[p.pos]) {
		p.pos++
	}
	v, _ := strconv.ParseUint(s[start:p.pos], 16, 32)
	if p.pos < len(s) {
		switch s[p.pos] {
		case ' ', '\t', '\n', '\f':
			p.pos++
		case '\r':
			p.pos++
			if p.pos < len(s) && s[p.pos] == '\n' {
				p.pos++
			}
		}
	}
	if v == 0 || v > utf8.MaxRune || 0xD800 <= v && v <= 0xDFFF {
		return utf8.RuneError
	}
	return rune(v)
}

// str reads a quoted string starting at its quote.
func (p *selParser) str() (string, error) {
	s := p.src
	quote := s[p.pos]
	p.pos++
	var b strings.Builder
	for p.pos < len(s) {
		c := s[p.pos]
		switch {
		case c == quote:
			p.pos++
			return b.String(), nil
		case c == '\n' || c == '\r' || c == '\f':
			return "", p.fail(errUnexpectedTokenInAttr, "a string with an unescaped line break")
		case c == '\\':
			if p.pos+1 >= len(s) {
				p.pos++
				continue
			}
			if n := s[p.pos+1]; n == '\n' || n == '\f' {
				p.pos += 2
				continue
			} else if n == '\r' {
				p.pos += 2
				if p.pos < len(s) && s[p.pos] == '\n' {
					p.pos++
				}
				continue
			}
			b.WriteRune(p.escape())
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
	return "", p.fail(errUnexpectedEnd, "a string without its closing quote")
}

// anb reads the argument of :nth-child() or :nth-of-type() and its ')'.
func (p *selParser) anb() (a, b int, err error) {
	end := strings.IndexByte(p.src[p.pos:], ')')
	if end < 0 {
		return 0, 0, p.fail(errUnexpectedEnd, "an :nth-*( without its )")
	}
	arg := p.src[p.pos : p.pos+end]
	a, b, ok := parseANB(arg)
	if !ok {
		return 0, 0, p.fail(errUnexpectedToken, "%q is not of the form an+b, odd or even", strings.TrimSpace(arg))
	}
	p.pos += end + 1
	return a, b, nil
}

// parseANB parses CSS's an+b notation: odd, even, an integer, or an
// optional integer and n followed by an optional signed integer.
func parseANB(s string) (a, b int, ok bool) {
	s = asciiLower(strings.Trim(s, " \t\n\r\f"))
	switch s {
	case "odd":
		return 2, 1, true
	case "even":
		return 2, 0, true
	case "":
		return 0, 0, false
	}
	n := strings.IndexByte(s, 'n')
	if n < 0 {
		v, ok := parseSigned(s)
		return 0, v, ok
	}
	switch coef := s[:n]; coef {
	case "", "+":
		a = 1
	case "-":
		a = -1
	default:
		v, ok := parseSigned(coef)
		if !ok {
			return 0, 0, false
		}
		a = v
	}
	rest := strings.TrimLeft(s[n+1:], " \t\n\r\f")
	if rest == "" {
		return a, 0, true
	}
	sign := rest[0]
	if sign != '+' && sign != '-' {
		return 0, 0, false
	}
	digits := strings.TrimLeft(rest[1:], " \t\n\r\f")
	if digits == "" || digits[0] == '+' || digits[0] == '-' {
		return 0, 0, false
	}
	v, err := strconv.Atoi(digits)
	if err != nil {
		return 0, 0, false
	}
	if sign == '-' {
		v = -v
	}
	return a, v, true
}

// parseSigned parses an integer with an optional sign and no spaces.
func parseSigned(s string) (int, bool) {
	digits := strings.TrimPrefix(strings.TrimPrefix(s, "+"), "-")
	if digits == "" {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.Atoi(s)
	return v, err == nil
}

// nthMatches says whether the 1-based position i is a*n+b for some n ≥ 0.
func nthMatches(a, b, i int) bool {
	if a == 0 {
		return i == b
	}
	d := i - b
	return d%a == 0 && d/a >= 0
}

// asciiLower lower-cases ASCII letters only, as HTML does with names.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
