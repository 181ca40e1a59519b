package lang

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
	"github.com/dop251/goja"
)

// engine compiles the translated pattern with regexp2, the engine goja
// itself falls back to, with the options goja gives it.
func (p *pattern) engine() (*regexp2.Regexp, error) {
	p.once.Do(func() {
		opts := regexp2.RegexOptions(regexp2.ECMAScript)
		src := p.native
		if strings.Contains(p.nativeFlags, "u") {
			opts |= regexp2.Unicode
		} else {
			src = astralToSurrogates(src)
		}
		if strings.Contains(p.nativeFlags, "m") {
			opts |= regexp2.Multiline
		}
		if strings.Contains(p.nativeFlags, "s") {
			opts |= regexp2.Singleline
		}
		if strings.Contains(p.nativeFlags, "i") {
			opts |= regexp2.IgnoreCase
		}
		p.rx2, p.rxErr = regexp2.Compile(src, opts)
	})
	return p.rx2, p.rxErr
}

// astralToSurrogates writes code points above U+FFFF in a non-unicode
// pattern as the two \u escapes of their surrogate pair, since the input
// is matched by UTF-16 code unit.
func astralToSurrogates(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r > 0xFFFF }) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r <= 0xFFFF {
			b.WriteRune(r)
			continue
		}
		hi, lo := utf16.EncodeRune(r)
		b.WriteString(`\u` + strconv.FormatInt(int64(hi), 16) + `\u` + strconv.FormatInt(int64(lo), 16))
	}
	return b.String()
}

// matchIndices finds the first match of p in s at or after the UTF-16
// index start and returns the start and end of the match and of each
// group in UTF-16 code units (-1, -1 for a group that did not take part),
// or nil when there is none.
func (p *pattern) matchIndices(s goja.String, start int) ([]int, error) {
	rx, err := p.engine()
	if err != nil {
		return nil, err
	}
	n := s.Length()
	var runes []rune
	var pos []int // UTF-16 index of each rune, and n at the end; nil when runes are code units
	if strings.Contains(p.nativeFlags, "u") {
		runes = make([]rune, 0, n)
		pos = make([]int, 0, n+1)
		mapped := -1
		for i := 0; i < n; {
			if mapped < 0 && i >= start {
				mapped = len(runes)
			}
			c := rune(s.CharAt(i))
			w := 1
			if utf16.IsSurrogate(c) && c < 0xDC00 && i+1 < n {
				if d := rune(s.CharAt(i + 1)); 0xDC00 <= d && d <= 0xDFFF {
					c, w = utf16.DecodeRune(c, d), 2
				}
			}
			runes = append(runes, c)
			pos = append(pos, i)
			i += w
		}
		pos = append(pos, n)
		if mapped < 0 {
			mapped = len(runes)
		}
		start = mapped
	} else {
		runes = make([]rune, n)
		for i := range runes {
			runes[i] = rune(s.CharAt(i))
		}
	}
	m, err := rx.FindRunesMatchStartingAt(runes, start)
	if err != nil || m == nil {
		return nil, err
	}
	groups := m.Groups()
	out := make([]int, 0, 2*len(groups))
	for _, g := range groups {
		if len(g.Captures) == 0 {
			out = append(out, -1, -1)
			continue
		}
		a, b := g.Index, g.Index+g.Length
		if pos != nil {
			a, b = pos[a], pos[b]
		}
		out = append(out, a, b)
	}
	return out, nil
}

// escapeSource is EscapeRegExpPattern: source as a regexp literal's body
// would show it, with / outside classes and line terminators escaped, and
// (?:) for the empty pattern.
func escapeSource(src string) string {
	if src == "" {
		return "(?:)"
	}
	var b strings.Builder
	inClass := false
	for i := 0; i < len(src); {
		r, w := utf8.DecodeRuneInString(src[i:])
		switch {
		case r == '\\' && i+1 < len(src):
			r2, w2 := utf8.DecodeRuneInString(src[i+1:])
			switch r2 {
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case 0x2028:
				b.WriteString(`\u2028`)
			case 0x2029:
				b.WriteString(`\u2029`)
			default:
				b.WriteString(src[i : i+1+w2])
			}
			i += 1 + w2
			continue
		case r == '[':
			inClass = true
		case r == ']':
			inClass = false
		case r == '/' && !inClass:
			b.WriteString(`\/`)
			i += w
			continue
		case r == '\n':
			b.WriteString(`\n`)
			i += w
			continue
		case r == '\r':
			b.WriteString(`\r`)
			i += w
			continue
		case r == 0x2028:
			b.WriteString(`\u2028`)
			i += w
			continue
		case r == 0x2029:
			b.WriteString(`\u2029`)
			i += w
			continue
		}
		b.WriteString(src[i : i+w])
		i += w
	}
	return b.String()
}
