package lang

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// maxRune is the last code point; sets range over [0, maxRune].
const maxRune = unicode.MaxRune

// span is a closed range of code points.
type span struct{ lo, hi rune }

// runeSet is a set of code points: sorted, disjoint, non-adjacent spans.
// Operations return new sets and never modify their operands.
type runeSet []span

// fromTable converts a unicode.RangeTable into a runeSet.
func fromTable(t *unicode.RangeTable) runeSet {
	var s []span
	add := func(lo, hi, stride rune) {
		if stride == 1 {
			s = append(s, span{lo, hi})
			return
		}
		for r := lo; r <= hi; r += stride {
			s = append(s, span{r, r})
		}
	}
	for _, r := range t.R16 {
		add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	for _, r := range t.R32 {
		add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	return normalize(s)
}

// setOf builds a set from spans in any order, overlapping or not.
func setOf(spans ...span) runeSet {
	return normalize(append([]span(nil), spans...))
}

// normalize sorts spans and merges overlapping and adjacent ones, in
// place.
func normalize(s []span) runeSet {
	if len(s) == 0 {
		return nil
	}
	sort.Slice(s, func(i, j int) bool { return s[i].lo < s[j].lo })
	out := s[:1]
	for _, x := range s[1:] {
		last := &out[len(out)-1]
		if x.lo <= last.hi+1 {
			if x.hi > last.hi {
				last.hi = x.hi
			}
			continue
		}
		out = append(out, x)
	}
	return runeSet(out)
}

func (a runeSet) union(b runeSet) runeSet {
	s := make([]span, 0, len(a)+len(b))
	s = append(append(s, a...), b...)
	return normalize(s)
}

func (a runeSet) complement() runeSet {
	var out runeSet
	next := rune(0)
	for _, x := range a {
		if x.lo > next {
			out = append(out, span{next, x.lo - 1})
		}
		next = x.hi + 1
	}
	if next <= maxRune {
		out = append(out, span{next, maxRune})
	}
	return out
}

func (a runeSet) intersect(b runeSet) runeSet {
	var out runeSet
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		lo, hi := max(a[i].lo, b[j].lo), min(a[i].hi, b[j].hi)
		if lo <= hi {
			out = append(out, span{lo, hi})
		}
		if a[i].hi < b[j].hi {
			i++
		} else {
			j++
		}
	}
	return out
}

func (a runeSet) minus(b runeSet) runeSet { return a.intersect(b.complement()) }

// contains reports whether r is in the set.
func (a runeSet) contains(r rune) bool {
	i := sort.Search(len(a), func(i int) bool { return a[i].hi >= r })
	return i < len(a) && a[i].lo <= r
}

// surrogates are the code points that never match in a pattern this
// package writes: goja's engines cannot hold them in a character class.
var surrogates = runeSet{{0xD800, 0xDFFF}}

// classBody writes the set's ranges as the inside of a character class
// in u-mode syntax (without the brackets).
func (a runeSet) classBody(b *strings.Builder) {
	for _, x := range a.minus(surrogates) {
		writeClassRune(b, x.lo)
		if x.hi == x.lo {
			continue
		}
		if x.hi > x.lo+1 {
			b.WriteByte('-')
		}
		writeClassRune(b, x.hi)
	}
}

// class writes the set as a character class; an empty set becomes a class
// that matches nothing.
func (a runeSet) class(b *strings.Builder) {
	if len(a.minus(surrogates)) == 0 {
		b.WriteString(`[^\0-\u{10FFFF}]`)
		return
	}
	b.WriteByte('[')
	a.classBody(b)
	b.WriteByte(']')
}

// writeClassRune writes r so that it means itself inside a u-mode
// character class.
func writeClassRune(b *strings.Builder, r rune) {
	switch {
	case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
		b.WriteRune(r)
	case r <= 0xFFFF:
		b.WriteString(`\u`)
		h := strconv.FormatInt(int64(r), 16)
		b.WriteString(strings.Repeat("0", 4-len(h)))
		b.WriteString(h)
	default:
		b.WriteString(`\u{`)
		b.WriteString(strconv.FormatInt(int64(r), 16))
		b.WriteByte('}')
	}
}
