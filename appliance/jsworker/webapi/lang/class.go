package lang

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// classValue is what a character class matches: code points, and (v flag
// only) strings of several code points.
type classValue struct {
	set     runeSet
	strs    []string
	negated bool
}

// write writes the class in u-mode syntax: a class, or an alternation
// when it has strings (longest first, as the v flag's semantics ask).
func (v classValue) write(b *strings.Builder) {
	if len(v.strs) == 0 {
		if v.negated {
			b.WriteString("[^")
			v.set.classBody(b)
			b.WriteByte(']')
			return
		}
		v.set.class(b)
		return
	}
	strs := append([]string(nil), v.strs...)
	sort.SliceStable(strs, func(i, j int) bool { return len([]rune(strs[i])) > len([]rune(strs[j])) })
	b.WriteString("(?:")
	for i, s := range strs {
		if i > 0 {
			b.WriteByte('|')
		}
		for _, r := range s {
			if strings.ContainsRune(`^$\.*+?()[]{}|/`, r) {
				b.WriteByte('\\')
				b.WriteRune(r)
			} else {
				writeClassRune(b, r)
			}
		}
	}
	if len(v.set) > 0 {
		b.WriteByte('|')
		v.set.class(b)
	}
	b.WriteByte(')')
}

// classParser evaluates a character class of a u-mode pattern
// (ClassRanges) or a v-mode one (ClassSetExpression, with nested classes,
// --, && and \q{...}) into a classValue.
type classParser struct {
	src        []rune
	i          int
	sets       bool
	ignoreCase bool
}

var (
	digitSet = runeSet{{'0', '9'}}
	wordSet  = runeSet{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}
	spaceSet = setOf(span{9, 13}, span{' ', ' '}, span{0xA0, 0xA0}, span{0x1680, 0x1680}, span{0x2000, 0x200A},
		span{0x2028, 0x2029}, span{0x202F, 0x202F}, span{0x205F, 0x205F}, span{0x3000, 0x3000}, span{0xFEFF, 0xFEFF})
)

func (c *classParser) peek(k int) rune {
	if c.i+k < len(c.src) {
		return c.src[c.i+k]
	}
	return -1
}

func (c *classParser) errorf(format string, args ...any) error {
	return fmt.Errorf(format, args...)
}

// parseClass parses the class that opens at c.i.
func (c *classParser) parseClass() (classValue, error) {
	c.i++ // [
	negated := false
	if c.peek(0) == '^' {
		negated = true
		c.i++
	}
	var v classValue
	var err error
	if c.sets {
		v, err = c.setExpression()
	} else {
		v, err = c.ranges()
	}
	if err != nil {
		return v, err
	}
	if c.peek(0) != ']' {
		return v, c.errorf("unterminated character class")
	}
	c.i++
	if negated && len(v.strs) > 0 {
		return v, c.errorf("negated character class may contain strings")
	}
	v.negated = negated
	return v, nil
}

// ranges parses u-mode ClassRanges up to the closing bracket.
func (c *classParser) ranges() (classValue, error) {
	var spans []span
	var set runeSet
	for c.peek(0) != ']' {
		if c.peek(0) < 0 {
			return classValue{}, c.errorf("unterminated character class")
		}
		lo, loSet, err := c.atom()
		if err != nil {
			return classValue{}, err
		}
		if c.peek(0) == '-' && c.peek(1) != ']' && c.peek(1) >= 0 {
			c.i++
			hi, hiSet, err := c.atom()
			if err != nil {
				return classValue{}, err
			}
			if loSet != nil || hiSet != nil {
				return classValue{}, c.errorf("invalid character class range")
			}
			if lo > hi {
				return classValue{}, c.errorf("range out of order in character class")
			}
			spans = append(spans, span{lo, hi})
			continue
		}
		if loSet != nil {
			set = set.union(loSet)
		} else {
			spans = append(spans, span{lo, lo})
		}
	}
	return classValue{set: set.union(normalize(spans))}, nil
}

// atom reads one class atom: a code point, or the set of a class escape
// (non-nil set).
func (c *classParser) atom() (rune, runeSet, error) {
	r := c.peek(0)
	if r != '\\' {
		if c.sets && strings.ContainsRune("()[]{}/-|", r) {
			return 0, nil, c.errorf("unescaped '%c' in a v-mode character class", r)
		}
		c.i++
		return r, nil, nil
	}
	e := c.peek(1)
	c.i += 2
	switch e {
	case 'd':
		return 0, digitSet, nil
	case 'D':
		return 0, digitSet.complement(), nil
	case 'w':
		return 0, c.word(), nil
	case 'W':
		return 0, c.word().complement(), nil
	case 's':
		return 0, spaceSet, nil
	case 'S':
		return 0, spaceSet.complement(), nil
	case 'p', 'P':
		t := &translator{src: c.src}
		set, next, err := t.propertyEscape(c.i - 2)
		if err != nil {
			return 0, nil, err
		}
		c.i = next
		return 0, set, nil
	case 'b':
		return 8, nil, nil
	case 't':
		return 9, nil, nil
	case 'n':
		return 10, nil, nil
	case 'v':
		return 11, nil, nil
	case 'f':
		return 12, nil, nil
	case 'r':
		return 13, nil, nil
	case '0':
		if d := c.peek(0); d >= '0' && d <= '9' {
			return 0, nil, c.errorf("invalid class escape")
		}
		return 0, nil, nil
	case 'c':
		l := c.peek(0)
		if 'a' <= l && l <= 'z' || 'A' <= l && l <= 'Z' {
			c.i++
			return l % 32, nil, nil
		}
		return 0, nil, c.errorf("invalid unicode escape")
	case 'x':
		return c.hex(2)
	case 'u':
		return c.unicodeEscape()
	case '-':
		return '-', nil, nil
	}
	if e >= 0 && strings.ContainsRune(`^$\.*+?()[]{}|/`, e) {
		return e, nil, nil
	}
	if c.sets && e >= 0 && strings.ContainsRune("&-!#%,:;<=>@`~", e) {
		return e, nil, nil
	}
	return 0, nil, c.errorf("invalid escape")
}

// word is \w; with i and u it also holds the two code points that fold
// into it.
func (c *classParser) word() runeSet {
	if c.ignoreCase {
		return wordSet.union(runeSet{{0x17F, 0x17F}, {0x212A, 0x212A}})
	}
	return wordSet
}

func (c *classParser) hex(n int) (rune, runeSet, error) {
	if c.i+n > len(c.src) {
		return 0, nil, c.errorf("invalid escape")
	}
	v, err := strconv.ParseUint(string(c.src[c.i:c.i+n]), 16, 32)
	if err != nil {
		return 0, nil, c.errorf("invalid escape")
	}
	c.i += n
	return rune(v), nil, nil
}

// unicodeEscape reads after \u: XXXX (joining a surrogate pair written as
// two escapes) or {X...}.
func (c *classParser) unicodeEscape() (rune, runeSet, error) {
	if c.peek(0) == '{' {
		end := c.i + 1
		for end < len(c.src) && c.src[end] != '}' {
			end++
		}
		v, err := strconv.ParseUint(string(c.src[c.i+1:min(end, len(c.src))]), 16, 32)
		if end >= len(c.src) || err != nil || v > maxRune {
			return 0, nil, c.errorf("invalid unicode escape")
		}
		c.i = end + 1
		return rune(v), nil, nil
	}
	hi, _, err := c.hex(4)
	if err != nil {
		return 0, nil, err
	}
	if 0xD800 <= hi && hi <= 0xDBFF && c.peek(0) == '\\' && c.peek(1) == 'u' {
		save := c.i
		c.i += 2
		lo, _, err := c.hex(4)
		if err == nil && 0xDC00 <= lo && lo <= 0xDFFF {
			return 0x10000 + (hi-0xD800)<<10 + (lo - 0xDC00), nil, nil
		}
		c.i = save
	}
	return hi, nil, nil
}

// setExpression parses a v-mode ClassSetExpression up to the closing
// bracket: a union, or a chain of && or of --.
func (c *classParser) setExpression() (classValue, error) {
	if c.peek(0) == ']' {
		return classValue{}, nil
	}
	first, single, err := c.operand()
	if err != nil {
		return first, err
	}
	switch {
	case c.peek(0) == '&' && c.peek(1) == '&':
		return c.chain(first, "&&")
	case c.peek(0) == '-' && c.peek(1) == '-':
		return c.chain(first, "--")
	}
	acc := classValue{}
	for {
		if single >= 0 && c.peek(0) == '-' && c.peek(1) != '-' {
			c.i++
			hi, hiSet, err := c.atom()
			if err != nil {
				return acc, err
			}
			if hiSet != nil || hi < single {
				return acc, c.errorf("invalid character class range")
			}
			first = classValue{set: runeSet{{single, hi}}}
		}
		acc.set = acc.set.union(first.set)
		acc.strs = unionStrings(acc.strs, first.strs)
		if c.peek(0) == ']' || c.peek(0) < 0 {
			return acc, nil
		}
		if p := c.peek(0); p == c.peek(1) && strings.ContainsRune("&!#$%*+,.:;<=>?@^`~-", p) {
			return acc, c.errorf("invalid set operation %c%c in character class: nest the operands in brackets", p, p)
		}
		first, single, err = c.operand()
		if err != nil {
			return acc, err
		}
	}
}

// chain parses operand op operand op ... for && (intersection) or --
// (subtraction).
func (c *classParser) chain(acc classValue, op string) (classValue, error) {
	for c.peek(0) == rune(op[0]) && c.peek(1) == rune(op[1]) {
		c.i += 2
		if c.peek(0) == rune(op[0]) {
			return acc, c.errorf("invalid set operation %s%c in character class", op, op[0])
		}
		next, _, err := c.operand()
		if err != nil {
			return acc, err
		}
		if op == "&&" {
			acc.set = acc.set.intersect(next.set)
			acc.strs = intersectStrings(acc.strs, next.strs)
		} else {
			acc.set = acc.set.minus(next.set)
			acc.strs = minusStrings(acc.strs, next.strs)
		}
	}
	if c.peek(0) != ']' {
		return acc, c.errorf("invalid character class: operators %s and others need brackets around their operands", op)
	}
	return acc, nil
}

// operand parses a ClassSetOperand; single is its code point when it is
// one character (the start of a possible range), else -1.
func (c *classParser) operand() (v classValue, single rune, err error) {
	switch {
	case c.peek(0) == '[':
		v, err = c.parseClass()
		if v.negated {
			v.set, v.negated = v.set.complement(), false
		}
		return v, -1, err
	case c.peek(0) == '\\' && c.peek(1) == 'q':
		v, err = c.stringDisjunction()
		return v, -1, err
	}
	r, set, err := c.atom()
	if err != nil {
		return v, -1, err
	}
	if set != nil {
		return classValue{set: set}, -1, nil
	}
	return classValue{set: runeSet{{r, r}}}, r, nil
}

// stringDisjunction parses \q{abc|d|...}.
func (c *classParser) stringDisjunction() (classValue, error) {
	c.i += 2
	if c.peek(0) != '{' {
		return classValue{}, c.errorf("invalid escape \\q: it needs {...}")
	}
	c.i++
	var v classValue
	var cur []rune
	flush := func() {
		if len(cur) == 1 {
			v.set = v.set.union(runeSet{{cur[0], cur[0]}})
		} else {
			v.strs = unionStrings(v.strs, []string{string(cur)})
		}
		cur = cur[:0]
	}
	for {
		switch c.peek(0) {
		case -1:
			return v, c.errorf("unterminated \\q{...}")
		case '}':
			c.i++
			flush()
			return v, nil
		case '|':
			c.i++
			flush()
		default:
			r, set, err := c.atom()
			if err != nil {
				return v, err
			}
			if set != nil {
				return v, c.errorf("invalid class escape in \\q{...}")
			}
			cur = append(cur, r)
		}
	}
}

func unionStrings(a, b []string) []string {
	out := a
	for _, s := range b {
		if indexOf(out, s) < 0 {
			out = append(out, s)
		}
	}
	return out
}

func intersectStrings(a, b []string) []string {
	var out []string
	for _, s := range a {
		if indexOf(b, s) >= 0 {
			out = append(out, s)
		}
	}
	return out
}

func minusStrings(a, b []string) []string {
	var out []string
	for _, s := range a {
		if indexOf(b, s) < 0 {
			out = append(out, s)
		}
	}
	return out
}
