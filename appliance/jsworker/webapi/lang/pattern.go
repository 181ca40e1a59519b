package lang

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/dlclark/regexp2"
)

// pattern is a regular expression as the app wrote it and as goja runs
// it: named groups become plain groups (goja's engine would number them
// after the unnamed ones), \k<name> a numbered backreference, \p{...} an
// explicit character class, v-flag classes u-flag ones, and the d and v
// flags are dropped or turned into u.
type pattern struct {
	source      string   // as written
	flags       string   // as written, in canonical order
	native      string   // what goja compiles
	nativeFlags string   // what goja compiles with
	names       []string // names[i] names group i+1 ("" if unnamed); nil without named groups
	groupNames  []string // the distinct names, in order
	groupIndex  [][]int  // the groups of each distinct name
	hasIndices  bool     // d
	unicodeSets bool     // v
	global      bool
	sticky      bool

	once  sync.Once
	rx2   *regexp2.Regexp // for the d flag's indices
	rxErr error
}

// errPlain reports a pattern goja runs as it is.
var errPlain = errors.New("plain pattern")

// flagOrder is the order the flags getter lists flags in.
const flagOrder = "dgimsuvy"

// parseFlags validates flags and returns them in canonical order.
func parseFlags(flags string) (string, error) {
	var seen [len(flagOrder)]bool
	for _, c := range flags {
		i := strings.IndexRune(flagOrder, c)
		if i < 0 || seen[i] {
			return "", fmt.Errorf("invalid flags supplied to RegExp constructor '%s'", flags)
		}
		seen[i] = true
	}
	if seen[5] && seen[6] {
		return "", fmt.Errorf("invalid flags supplied to RegExp constructor '%s': u and v exclude each other", flags)
	}
	var b strings.Builder
	for i, ok := range seen {
		if ok {
			b.WriteByte(flagOrder[i])
		}
	}
	return b.String(), nil
}

// translate rewrites source for goja. It returns errPlain when goja can run
// source with flags as they are, and a SyntaxError's message for an
// invalid pattern.
func translate(source, flags string) (*pattern, error) {
	canon, err := parseFlags(flags)
	if err != nil {
		return nil, err
	}
	p := &pattern{
		source:      source,
		flags:       canon,
		hasIndices:  strings.Contains(canon, "d"),
		unicodeSets: strings.Contains(canon, "v"),
		global:      strings.Contains(canon, "g"),
		sticky:      strings.Contains(canon, "y"),
	}
	unicodeMode := p.unicodeSets || strings.Contains(canon, "u")
	t := &translator{src: []rune(source), unicode: unicodeMode, sets: p.unicodeSets, ignoreCase: strings.Contains(canon, "i")}
	if err := t.collectGroups(); err != nil {
		return nil, err
	}
	needsProps := unicodeMode && (strings.Contains(source, `\p`) || strings.Contains(source, `\P`))
	if !t.named && !needsProps && !p.hasIndices && !p.unicodeSets {
		return nil, errPlain
	}
	if err := t.emit(); err != nil {
		return nil, err
	}
	p.native = t.out.String()
	p.nativeFlags = strings.NewReplacer("d", "", "v", "u").Replace(canon)
	if t.named {
		p.names = t.names
		for i, name := range t.names {
			if name == "" {
				continue
			}
			k := indexOf(p.groupNames, name)
			if k < 0 {
				k = len(p.groupNames)
				p.groupNames = append(p.groupNames, name)
				p.groupIndex = append(p.groupIndex, nil)
			}
			p.groupIndex[k] = append(p.groupIndex[k], i+1)
		}
	}
	return p, nil
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// translator walks a pattern twice: once to number and name its groups,
// once to write the translation.
type translator struct {
	src        []rune
	unicode    bool // u or v
	sets       bool // v
	ignoreCase bool

	names  []string // per group, "" if unnamed
	named  bool
	byName map[string][]int // group numbers of each name
	out    strings.Builder
}

func (t *translator) peek(i int) rune {
	if i < len(t.src) {
		return t.src[i]
	}
	return -1
}

// groupName reads a group name starting after '<' at i, returning it and
// the index after '>'.
func (t *translator) groupName(i int) (string, int, error) {
	start := i
	for i < len(t.src) && t.src[i] != '>' {
		r := t.src[i]
		ok := r == '$' || r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r)
		if i > start {
			ok = ok || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc) || r == 0x200C || r == 0x200D
		}
		if !ok {
			return "", 0, fmt.Errorf("invalid capture group name")
		}
		i++
	}
	if i >= len(t.src) || i == start {
		return "", 0, fmt.Errorf("invalid capture group name")
	}
	return string(t.src[start:i]), i + 1, nil
}

// skipClass returns the index after the class that opens at i.
func (t *translator) skipClass(i int) int {
	depth := 0
	for i < len(t.src) {
		switch t.src[i] {
		case '\\':
			i++
		case '[':
			if depth == 0 || t.sets {
				depth++
			}
		case ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return i
}

func (t *translator) collectGroups() error {
	t.byName = map[string][]int{}
	for i := 0; i < len(t.src); {
		switch t.src[i] {
		case '\\':
			i += 2
		case '[':
			i = t.skipClass(i)
		case '(':
			i++
			if t.peek(i) != '?' {
				t.names = append(t.names, "")
				continue
			}
			if t.peek(i+1) == '<' && t.peek(i+2) != '=' && t.peek(i+2) != '!' {
				name, next, err := t.groupName(i + 2)
				if err != nil {
					return err
				}
				t.names = append(t.names, name)
				t.byName[name] = append(t.byName[name], len(t.names))
				t.named = true
				i = next
			}
		default:
			i++
		}
	}
	return nil
}

func (t *translator) emit() error {
	for i := 0; i < len(t.src); {
		c := t.src[i]
		switch {
		case c == '\\':
			next, err := t.escape(i)
			if err != nil {
				return err
			}
			i = next
		case c == '[':
			next, err := t.class(i)
			if err != nil {
				return err
			}
			i = next
		case c == '(' && t.peek(i+1) == '?' && t.peek(i+2) == '<' && t.peek(i+3) != '=' && t.peek(i+3) != '!':
			_, next, _ := t.groupName(i + 3)
			t.out.WriteByte('(')
			i = next
		default:
			t.out.WriteRune(c)
			i++
		}
	}
	return nil
}

// escape translates the escape at i (a backslash) outside a class.
func (t *translator) escape(i int) (int, error) {
	c := t.peek(i + 1)
	switch {
	case c == 'k' && (t.named || t.unicode):
		if t.peek(i+2) != '<' {
			return 0, fmt.Errorf("invalid named reference")
		}
		name, next, err := t.groupName(i + 3)
		if err != nil {
			return 0, err
		}
		groups, ok := t.byName[name]
		if !ok {
			return 0, fmt.Errorf("invalid named capture referenced \\k<%s>", name)
		}
		t.out.WriteString("(?:")
		for _, g := range groups {
			t.out.WriteString(`\` + strconv.Itoa(g))
		}
		t.out.WriteByte(')')
		return next, nil
	case (c == 'p' || c == 'P') && t.unicode:
		set, next, err := t.propertyEscape(i)
		if err != nil {
			return 0, err
		}
		set.class(&t.out)
		return next, nil
	case c < 0:
		return 0, fmt.Errorf("\\ at end of pattern")
	}
	t.out.WriteRune('\\')
	t.out.WriteRune(c)
	return i + 2, nil
}

// propertyEscape reads \p{...} or \P{...} at i.
func (t *translator) propertyEscape(i int) (runeSet, int, error) {
	negate := t.src[i+1] == 'P'
	if t.peek(i+2) != '{' {
		return nil, 0, fmt.Errorf("invalid property name")
	}
	end := i + 3
	for end < len(t.src) && t.src[end] != '}' {
		end++
	}
	if end >= len(t.src) {
		return nil, 0, fmt.Errorf("invalid property name")
	}
	set, err := property(string(t.src[i+3 : end]))
	if err != nil {
		return nil, 0, err
	}
	if negate {
		set = set.complement()
	}
	return set, end + 1, nil
}

// class translates the character class opening at i.
func (t *translator) class(i int) (int, error) {
	end := t.skipClass(i)
	if end > len(t.src) || t.src[end-1] != ']' {
		return 0, fmt.Errorf("unterminated character class")
	}
	body := string(t.src[i:end])
	if !t.sets && !(t.unicode && (strings.Contains(body, `\p`) || strings.Contains(body, `\P`))) {
		t.out.WriteString(body)
		return end, nil
	}
	c := &classParser{src: t.src, i: i, sets: t.sets, ignoreCase: t.ignoreCase}
	v, err := c.parseClass()
	if err != nil {
		return 0, err
	}
	v.write(&t.out)
	return c.i, nil
}
