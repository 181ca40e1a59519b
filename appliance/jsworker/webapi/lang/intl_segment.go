package lang

import (
	"unicode"

	"github.com/dop251/goja"
)

// text is a string as code points with their UTF-16 offsets.
type text struct {
	runes []rune
	at    []int // UTF-16 offset of each rune, and the length at the end
}

func textOf(s goja.String) text {
	n := s.Length()
	t := text{runes: make([]rune, 0, n), at: make([]int, 0, n+1)}
	for i := 0; i < n; {
		c := rune(s.CharAt(i))
		w := 1
		if 0xD800 <= c && c <= 0xDBFF && i+1 < n {
			if d := rune(s.CharAt(i + 1)); 0xDC00 <= d && d <= 0xDFFF {
				c, w = 0x10000+(c-0xD800)<<10+(d-0xDC00), 2
			}
		}
		t.runes = append(t.runes, c)
		t.at = append(t.at, i)
		i += w
	}
	t.at = append(t.at, n)
	return t
}

// Grapheme cluster break classes (UAX #29).
const (
	gOther = iota
	gCR
	gLF
	gControl
	gExtend
	gZWJ
	gRI
	gPrepend
	gSpacingMark
	gL
	gV
	gT
	gLV
	gLVT
	gExtPict
)

func graphemeClass(r rune) int {
	switch {
	case r == '\r':
		return gCR
	case r == '\n':
		return gLF
	case r == 0x200D:
		return gZWJ
	case r == 0x200C || emojiModifier.contains(r) || unicode.In(r, unicode.Mn, unicode.Me, unicode.Other_Grapheme_Extend):
		return gExtend
	case 0x1F1E6 <= r && r <= 0x1F1FF:
		return gRI
	case unicode.Is(unicode.Prepended_Concatenation_Mark, r):
		return gPrepend
	case unicode.In(r, unicode.Cc, unicode.Zl, unicode.Zp, unicode.Cf):
		return gControl
	case unicode.Is(unicode.Mc, r) || r == 0x0E33 || r == 0x0EB3:
		return gSpacingMark
	case 0x1100 <= r && r <= 0x115F || 0xA960 <= r && r <= 0xA97C:
		return gL
	case 0x1160 <= r && r <= 0x11A7 || 0xD7B0 <= r && r <= 0xD7C6:
		return gV
	case 0x11A8 <= r && r <= 0x11FF || 0xD7CB <= r && r <= 0xD7FB:
		return gT
	case 0xAC00 <= r && r <= 0xD7A3:
		if (r-0xAC00)%28 == 0 {
			return gLV
		}
		return gLVT
	case extendedPictographic.contains(r):
		return gExtPict
	}
	return gOther
}

// graphemes returns the indexes (into t.runes) where clusters start, and
// the length.
func graphemes(t text) []int {
	bounds := []int{0}
	if len(t.runes) == 0 {
		return bounds
	}
	prev := graphemeClass(t.runes[0])
	riRun := 0
	if prev == gRI {
		riRun = 1
	}
	emojiZWJ := false          // ExtPict Extend* ZWJ just seen
	inPict := prev == gExtPict // ExtPict Extend* so far
	for i := 1; i < len(t.runes); i++ {
		cur := graphemeClass(t.runes[i])
		join := false
		switch {
		case prev == gCR && cur == gLF:
			join = true
		case prev == gControl || prev == gCR || prev == gLF || cur == gControl || cur == gCR || cur == gLF:
		case prev == gL && (cur == gL || cur == gV || cur == gLV || cur == gLVT),
			(prev == gLV || prev == gV) && (cur == gV || cur == gT),
			(prev == gLVT || prev == gT) && cur == gT:
			join = true
		case cur == gExtend || cur == gZWJ || cur == gSpacingMark || prev == gPrepend:
			join = true
		case emojiZWJ && cur == gExtPict:
			join = true
		case prev == gRI && cur == gRI && riRun%2 == 1:
			join = true
		}
		if !join {
			bounds = append(bounds, i)
		}
		switch {
		case cur == gExtPict:
			inPict, emojiZWJ = true, false
		case cur == gExtend && inPict:
		case cur == gZWJ && inPict:
			emojiZWJ, inPict = true, false
		default:
			inPict, emojiZWJ = false, false
		}
		if cur == gRI {
			riRun++
		} else {
			riRun = 0
		}
		prev = cur
	}
	return append(bounds, len(t.runes))
}

// Word break classes (UAX #29, without dictionaries).
const (
	wOther = iota
	wCR
	wLF
	wNewline
	wExtend
	wZWJ
	wFormat
	wRI
	wKatakana
	wHiragana
	wIdeo
	wALetter
	wSingleQuote
	wDoubleQuote
	wMidNumLet
	wMidLetter
	wMidNum
	wNumeric
	wExtendNumLet
	wWSegSpace
	wExtPict
)

func wordClass(r rune) int {
	switch r {
	case '\r':
		return wCR
	case '\n':
		return wLF
	case 0x0B, 0x0C, 0x85, 0x2028, 0x2029:
		return wNewline
	case 0x200D:
		return wZWJ
	case '\'':
		return wSingleQuote
	case '"':
		return wDoubleQuote
	case '.', 0x2018, 0x2019, 0x2024, 0xFE52, 0xFF07, 0xFF0E:
		return wMidNumLet
	case ':', 0xB7, 0x387, 0x55F, 0x5F4, 0x2027, 0xFE13, 0xFE55, 0xFF1A:
		return wMidLetter
	case ',', ';', 0x37E, 0x589, 0x60C, 0x60D, 0x66C, 0x7F8, 0x2044, 0xFE10, 0xFE14, 0xFE50, 0xFE54, 0xFF0C, 0xFF1B:
		return wMidNum
	case 0x202F:
		return wExtendNumLet
	case 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x309B, 0x309C, 0x30A0, 0x30FC, 0xFF70:
		return wKatakana
	}
	switch {
	case 0x1F1E6 <= r && r <= 0x1F1FF:
		return wRI
	case r == 0x200C || emojiModifier.contains(r) || unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc, unicode.Other_Grapheme_Extend):
		return wExtend
	case unicode.Is(unicode.Cf, r):
		return wFormat
	case unicode.Is(unicode.Katakana, r):
		return wKatakana
	case unicode.Is(unicode.Hiragana, r):
		return wHiragana
	case unicode.Is(unicode.Ideographic, r) || unicode.Is(unicode.Han, r):
		return wIdeo
	case unicode.Is(unicode.Nd, r):
		return wNumeric
	case unicode.Is(unicode.Pc, r):
		return wExtendNumLet
	case unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_Alphabetic, r):
		return wALetter
	case unicode.Is(unicode.Zs, r) && r != 0xA0 && r != 0x2007:
		return wWSegSpace
	case extendedPictographic.contains(r):
		return wExtPict
	}
	return wOther
}

func isAHLetter(c int) bool   { return c == wALetter }
func isMidLetterQ(c int) bool { return c == wMidLetter || c == wMidNumLet || c == wSingleQuote }
func isMidNumQ(c int) bool    { return c == wMidNum || c == wMidNumLet || c == wSingleQuote }

// words returns where words start (indexes into t.runes) and the length,
// and whether each word is word-like (letters, digits, kana, ideographs).
func words(t text) (bounds []int, wordLike []bool) {
	n := len(t.runes)
	bounds = []int{0}
	if n == 0 {
		return bounds, nil
	}
	cls := make([]int, n)
	for i, r := range t.runes {
		cls[i] = wordClass(r)
	}
	ignorable := func(c int) bool { return c == wExtend || c == wFormat || c == wZWJ }
	// next returns the class of the first non-ignorable code point at or
	// after i, or -1.
	next := func(i int) int {
		for ; i < n; i++ {
			if !ignorable(cls[i]) {
				return cls[i]
			}
		}
		return -1
	}
	// base is the class a run ending at i (inclusive) counts as: the last
	// non-ignorable one.
	base := make([]int, n)
	before := make([]int, n) // the base of the run before that, or -1
	last, prevBase := -1, -1
	for i := range cls {
		if !ignorable(cls[i]) || last < 0 || last == wCR || last == wLF || last == wNewline {
			prevBase = last
			last = cls[i]
		}
		base[i] = last
		before[i] = prevBase
	}
	riRun := 0
	if cls[0] == wRI {
		riRun = 1
	}
	for i := 1; i < n; i++ {
		p, c := base[i-1], cls[i]
		pp := before[i-1]
		join := false
		switch {
		case cls[i-1] == wCR && c == wLF:
			join = true
		case cls[i-1] == wCR || cls[i-1] == wLF || cls[i-1] == wNewline || c == wCR || c == wLF || c == wNewline:
		case cls[i-1] == wZWJ && c == wExtPict:
			join = true
		case cls[i-1] == wWSegSpace && c == wWSegSpace:
			join = true
		case ignorable(c):
			join = true
		case isAHLetter(p) && isAHLetter(c):
			join = true
		case isAHLetter(p) && isMidLetterQ(c) && isAHLetter(next(i+1)):
			join = true
		case isMidLetterQ(p) && isAHLetter(c) && isAHLetter(pp):
			join = true
		case p == wNumeric && c == wNumeric, isAHLetter(p) && c == wNumeric, p == wNumeric && isAHLetter(c):
			join = true
		case isMidNumQ(p) && c == wNumeric && pp == wNumeric:
			join = true
		case p == wNumeric && isMidNumQ(c) && next(i+1) == wNumeric:
			join = true
		case p == wKatakana && c == wKatakana, p == wHiragana && c == wHiragana:
			join = true
		case (isAHLetter(p) || p == wNumeric || p == wKatakana || p == wExtendNumLet) && c == wExtendNumLet:
			join = true
		case p == wExtendNumLet && (isAHLetter(c) || c == wNumeric || c == wKatakana):
			join = true
		case p == wRI && c == wRI && riRun%2 == 1:
			join = true
		}
		if !join {
			bounds = append(bounds, i)
		}
		if c == wRI {
			riRun++
		} else if !ignorable(c) {
			riRun = 0
		}
	}
	bounds = append(bounds, n)
	for k := 0; k+1 < len(bounds); k++ {
		like := false
		for i := bounds[k]; i < bounds[k+1]; i++ {
			switch cls[i] {
			case wALetter, wNumeric, wKatakana, wHiragana, wIdeo:
				like = true
			}
		}
		wordLike = append(wordLike, like)
	}
	return bounds, wordLike
}

// sentences returns where sentences start and the length: after ., ! or
// ? (and any closing punctuation and spaces), unless a lower-case letter
// or digit follows a full stop, and after paragraph separators.
func sentences(t text) []int {
	n := len(t.runes)
	bounds := []int{0}
	for i := 0; i < n; i++ {
		r := t.runes[i]
		para := r == '\n' || r == '\r' || r == 0x2029 || r == 0x85
		term := r == '.' || r == '!' || r == '?' || unicode.Is(unicode.Sentence_Terminal, r)
		if !para && !term {
			continue
		}
		j := i + 1
		if para {
			if r == '\r' && j < n && t.runes[j] == '\n' {
				j++
			}
		} else {
			for j < n && (t.runes[j] == '.' || t.runes[j] == '!' || t.runes[j] == '?' || unicode.Is(unicode.Sentence_Terminal, t.runes[j])) {
				j++
			}
			for j < n && (unicode.In(t.runes[j], unicode.Pe, unicode.Pf, unicode.Pi) || t.runes[j] == '"' || t.runes[j] == '\'') {
				j++
			}
			spaces := j
			for j < n && (t.runes[j] == ' ' || t.runes[j] == '\t' || unicode.Is(unicode.Zs, t.runes[j])) {
				j++
			}
			if j < n && (t.runes[j] == '\n' || t.runes[j] == 0x2029) {
				j++
			} else if j < n && r == '.' && (j == spaces || unicode.IsLower(t.runes[j]) || unicode.IsDigit(t.runes[j])) {
				i = j - 1
				continue
			}
		}
		if j < n {
			bounds = append(bounds, j)
		}
		i = j - 1
	}
	return append(bounds, n)
}
