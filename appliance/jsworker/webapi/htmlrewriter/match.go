package htmlrewriter

// element is what selectors test on a start tag: its name, namespace,
// attributes (raw, not decoded) and its position among its siblings.
type element struct {
	name    string // lower case
	html    bool   // in the HTML namespace
	raw     []byte
	attrs   []rawAttr
	nth     int // 1-based index among the parent's element children
	nthType int // 1-based index among the parent's children of its name
}

// attr returns the value of the first attribute named name (lower case).
func (e *element) attr(name string) ([]byte, bool) {
	for _, a := range e.attrs {
		if asciiEqualFold(e.raw[a.name[0]:a.name[1]], name) {
			return e.raw[a.value[0]:a.value[1]], true
		}
	}
	return nil, false
}

// asciiEqualFold compares b with the lower-case s, ASCII case-insensitively.
func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

func (c *compound) matches(e *element) bool {
	if c.name != "" && c.name != e.name {
		return false
	}
	for i := range c.conds {
		if !c.conds[i].matches(e) {
			return false
		}
	}
	return true
}

func (k *cond) matches(e *element) bool {
	switch k.kind {
	case condID:
		v, ok := e.attr("id")
		return ok && string(v) == k.name
	case condClass:
		v, ok := e.attr("class")
		return ok && containsWord(v, k.name, false)
	case condAttrExists:
		_, ok := e.attr(k.name)
		return ok
	case condAttr:
		v, ok := e.attr(k.name)
		return ok && k.valueMatches(v, k.fold == caseInsensitive || k.fold == caseInsensitiveInHTML && e.html)
	case condNthChild:
		return nthMatches(k.a, k.b, e.nth)
	case condNthOfType:
		return nthMatches(k.a, k.b, e.nthType)
	case condNot:
		for _, c := range k.not {
			if c.matches(e) {
				return false
			}
		}
		return true
	}
	return false
}

// valueMatches applies an attribute selector's operator to value.
func (k *cond) valueMatches(value []byte, fold bool) bool {
	want := k.value
	eq := func(b []byte, s string) bool {
		if fold {
			return asciiOnlyFold(b, s)
		}
		return string(b) == s
	}
	switch k.op {
	case '=':
		return eq(value, want)
	case '~':
		return containsWord(value, want, fold)
	case '|':
		return eq(value, want) || len(value) > len(want) && value[len(want)] == '-' && eq(value[:len(want)], want)
	case '^':
		return want != "" && len(value) >= len(want) && eq(value[:len(want)], want)
	case '$':
		return want != "" && len(value) >= len(want) && eq(value[len(value)-len(want):], want)
	case '*':
		if want == "" || len(value) < len(want) {
			return false
		}
		for i := 0; i+len(want) <= len(value); i++ {
			if eq(value[i:i+len(want)], want) {
				return true
			}
		}
	}
	return false
}

// asciiOnlyFold rules out the non-ASCII case pairs bytes.EqualFold
// accepts: selectors fold ASCII letters only.
func asciiOnlyFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := 0; i < len(b); i++ {
		x, y := b[i], s[i]
		if x == y {
			continue
		}
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// containsWord says whether the whitespace-separated list v contains w
// (never for an empty w or one with whitespace, as CSS's ~= says).
func containsWord(v []byte, w string, fold bool) bool {
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if isSpace(w[i]) {
			return false
		}
	}
	for len(v) > 0 {
		for len(v) > 0 && isSpace(v[0]) {
			v = v[1:]
		}
		end := 0
		for end < len(v) && !isSpace(v[end]) {
			end++
		}
		word := v[:end]
		if fold && asciiOnlyFold(word, w) || !fold && string(word) == w {
			return true
		}
		v = v[end:]
	}
	return false
}
