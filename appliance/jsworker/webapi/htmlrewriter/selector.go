package htmlrewriter

import (
	"fmt"
	"strings"
)

// A selector is a comma-separated list of complex selectors: it matches an
// element that any of them matches.
type selector []*complexSelector

// A complexSelector is compound selectors joined by combinators, matched
// right to left: parts[len-1] is the element itself, combs[i] joins
// parts[i] and parts[i+1].
type complexSelector struct {
	parts []*compound
	combs []combinator
}

type combinator byte

const (
	descendant combinator = ' '
	child      combinator = '>'
)

// A compound is a type selector (or none, for any element) and the
// conditions the element must also meet. bit is its index in the
// program's table of compounds: open elements remember which compounds
// they matched, so that combinators test ancestors by bit.
type compound struct {
	name  string // lower case; "" for any element
	conds []cond
	bit   int
}

type condKind byte

const (
	condID condKind = iota
	condClass
	condAttrExists
	condAttr      // [name op value]
	condNthChild  // :nth-child(an+b), :first-child
	condNthOfType // :nth-of-type(an+b), :first-of-type
	condNot       // :not(list)
)

// A cond is one simple selector beyond the type.
type cond struct {
	kind  condKind
	name  string // the id, the class, or the attribute's lower-case name
	op    byte   // '=', '~', '|', '^', '$', '*'
	value string
	fold  caseMode
	a, b  int // an+b
	not   []*compound
}

// caseMode says how an attribute selector compares values.
type caseMode byte

const (
	caseSensitive caseMode = iota
	caseInsensitive
	// caseInsensitiveInHTML is the default for the attributes HTML lists
	// as case-insensitive: insensitive on HTML elements only.
	caseInsensitiveInHTML
)

// selectorError is a selector that lol-html would refuse: kind is its
// message for the class of error, detail what in the selector caused it.
type selectorError struct {
	kind, detail, selector string
}

func (e *selectorError) Error() string {
	msg := strings.TrimSuffix(e.kind, ".")
	if e.detail != "" {
		msg += ": " + e.detail
	}
	return fmt.Sprintf("%s (in the selector %q).", msg, e.selector)
}

// The classes of selector errors, worded as lol-html words them.
const (
	errUnexpectedToken       = "Unexpected token in selector."
	errUnexpectedEnd         = "Unexpected end of selector."
	errMissingAttributeName  = "Missing attribute name in attribute selector."
	errEmptySelector         = "The selector is empty."
	errDanglingCombinator    = "Dangling combinator in selector."
	errUnexpectedTokenInAttr = "Unexpected token in the attribute selector."
	errUnsupportedPseudo     = "Unsupported pseudo-class or pseudo-element in selector."
	errNamespacedSelector    = "Selectors with explicit namespaces are not supported."
	errInvalidClassName      = "Invalid or unescaped class name in selector."
	errUnsupportedCombinator = "Unsupported combinator in selector."
	errUnsupportedSyntax     = "Unsupported syntax in selector."
)

// parseSelector parses the CSS selectors lol-html supports: *, E, E.class,
// E#id, attribute selectors with every operator and the i and s flags,
// descendant and child combinators, :nth-child(), :first-child,
// :nth-of-type(), :first-of-type, :not() of compound selectors, and comma
// lists. Anything else is a *selectorError.
func parseSelector(s string) (selector, error) {
	p := &selParser{src: s}
	list, err := p.list(false)
	if err != nil {
		return nil, err
	}
	if p.skipSpace(); p.pos < len(p.src) {
		return nil, p.fail(errUnexpectedToken, "%q", p.src[p.pos:])
	}
	return list, nil
}

type selParser struct {
	src string
	pos int
}

func (p *selParser) fail(kind, format string, args ...any) error {
	return &selectorError{kind: kind, detail: fmt.Sprintf(format, args...), selector: p.src}
}

func (p *selParser) peek() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

// skipSpace skips whitespace and comments and says whether there was any.
func (p *selParser) skipSpace() bool {
	start := p.pos
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			p.pos++
		case c == '/' && strings.HasPrefix(p.src[p.pos:], "/*"):
			end := strings.Index(p.src[p.pos+2:], "*/")
			if end < 0 {
				p.pos = len(p.src)
			} else {
				p.pos += end + 4
			}
		default:
			return p.pos > start
		}
	}
	return p.pos > start
}

// list parses a comma-separated list, of complex selectors or (inside
// :not) of compound selectors, up to the end or a ')'.
func (p *selParser) list(inNot bool) (selector, error) {
	var list selector
	for {
		p.skipSpace()
		if p.pos >= len(p.src) || p.peek() == ',' || p.peek() == ')' {
			if p.pos >= len(p.src) && len(list) > 0 {
				return nil, p.fail(errUnexpectedEnd, "nothing after the last comma")
			}
			return nil, p.fail(errEmptySelector, "")
		}
		cs, err := p.complex(inNot)
		if err != nil {
			return nil, err
		}
		list = append(list, cs)
		p.skipSpace()
		if p.peek() != ',' {
			return list, nil
		}
		p.pos++
	}
}

func (p *selParser) complex(inNot bool) (*complexSelector, error) {
	cs := &complexSelector{}
	for {
		c, err := p.compound()
		if err != nil {
			return nil, err
		}
		cs.parts = append(cs.parts, c)
		space := p.skipSpace()
		var comb combinator
		switch ch := p.peek(); {
		case ch == '>':
			comb = child
			p.pos++
		case ch == '+' || ch == '~':
			return nil, p.fail(errUnsupportedCombinator, "`%c` (sibling combinators)", ch)
		case ch == '|' && strings.HasPrefix(p.src[p.pos:], "||"):
			return nil, p.fail(errUnsupportedCombinator, "`||`")
		case ch == 0 || ch == ',' || ch == ')':
			return cs, nil
		case space:
			comb = descendant
		default:
			return nil, p.fail(errUnexpectedToken, "%q", p.src[p.pos:])
		}
		if inNot {
			return nil, p.fail(errUnsupportedPseudo, ":not() takes compound selectors only, without combinators")
		}
		p.skipSpace()
		if ch := p.peek(); ch == 0 || ch == ',' || ch == ')' {
			return nil, p.fail(errDanglingCombinator, "nothing after %q", string(comb))
		}
		if ch := p.peek(); ch == '>' || ch == '+' || ch == '~' {
			return nil, p.fail(errUnexpectedToken, "two combinators in a row")
		}
		cs.combs = append(cs.combs, comb)
	}
}

// compound parses a type selector or * and the simple selectors after it.
func (p *selParser) compound() (*compound, error) {
	c := &compound{}
	start := p.pos
	switch ch := p.peek(); {
	case ch == '*':
		p.pos++
		if p.peek() == '|' {
			return nil, p.fail(errNamespacedSelector, "%q", p.src[start:p.pos+1])
		}
	case ch == '|':
		return nil, p.fail(errNamespacedSelector, "%q", p.src[start:])
	case p.identStart():
		name, err := p.ident()
		if err != nil {
			return nil, err
		}
		if p.peek() == '|' && !strings.HasPrefix(p.src[p.pos:], "||") {
			return nil, p.fail(errNamespacedSelector, "%q", p.src[start:p.pos+1])
		}
		c.name = asciiLower(name)
	}
	for {
		switch p.peek() {
		case '#':
			p.pos++
			if !p.identStart() {
				return nil, p.fail(errUnexpectedToken, "an id selector needs an identifier after #")
			}
			id, err := p.ident()
			if err != nil {
				return nil, err
			}
			c.conds = append(c.conds, cond{kind: condID, name: id})
		case '.':
			p.pos++
			if !p.identStart() {
				return nil, p.fail(errInvalidClassName, "a class selector needs an identifier after .")
			}
			class, err := p.ident()
			if err != nil {
				return nil, err
			}
			c.conds = append(c.conds, cond{kind: condClass, name: class})
		case '[':
			p.pos++
			a, err := p.attribute()
			if err != nil {
				return nil, err
			}
			c.conds = append(c.conds, a)
		case ':':
			p.pos++
			pc, err := p.pseudo()
			if err != nil {
				return nil, err
			}
			c.conds = append(c.conds, pc)
		default:
			if p.pos == start {
				if p.pos >= len(p.src) {
					return nil, p.fail(errUnexpectedEnd, "")
				}
				return nil, p.fail(errUnexpectedToken, "%q", p.src[p.pos:])
			}
			return c, nil
		}
	}
}

// attribute parses what follows a '[' up to and including the ']'.
func (p *selParser) attribute() (cond, error) {
	p.skipSpace()
	if p.peek() == '|' || p.peek() == '*' {
		return cond{}, p.fail(errNamespacedSelector, "attribute selectors with a namespace")
	}
	if !p.identStart() {
		return cond{}, p.fail(errMissingAttributeName, "")
	}
	name, err := p.ident()
	if err != nil {
		return cond{}, err
	}
	if p.peek() == '|' && (p.pos+1 >= len(p.src) || p.src[p.pos+1] != '=') {
		return cond{}, p.fail(errNamespacedSelector, "attribute selectors with a namespace")
	}
	a := cond{kind: condAttrExists, name: asciiLower(name)}
	p.skipSpace()
	switch ch := p.peek(); ch {
	case ']':
		p.pos++
		return a, nil
	case '=':
		a.op = '='
		p.pos++
	case '~', '|', '^', '$', '*':
		if p.pos+1 >= len(p.src) || p.src[p.pos+1] != '=' {
			return cond{}, p.fail(errUnexpectedTokenInAttr, "%q is not an attribute operator", string(ch))
		}
		a.op = ch
		p.pos += 2
	default:
		if ch == 0 {
			return cond{}, p.fail(errUnexpectedEnd, "an attribute selector without its ]")
		}
		return cond{}, p.fail(errUnexpectedTokenInAttr, "%q", p.src[p.pos:])
	}
	a.kind = condAttr
	p.skipSpace()
	switch ch := p.peek(); {
	case ch == '"' || ch == '\'':
		v, err := p.str()
		if err != nil {
			return cond{}, err
		}
		a.value = v
	case p.identStart():
		v, err := p.ident()
		if err != nil {
			return cond{}, err
		}
		a.value = v
	default:
		return cond{}, p.fail(errUnexpectedTokenInAttr, "the value must be an identifier or a quoted string")
	}
	if caseInsensitiveAttrs[a.name] {
		a.fold = caseInsensitiveInHTML
	}
	p.skipSpace()
	if p.identStart() {
		flag, err := p.ident()
		if err != nil {
			return cond{}, err
		}
		switch asciiLower(flag) {
		case "i":
			a.fold = caseInsensitive
		case "s":
			a.fold = caseSensitive
		default:
			return cond{}, p.fail(errUnexpectedTokenInAttr, "unknown flag %q (i or s)", flag)
		}
		p.skipSpace()
	}
	if p.peek() != ']' {
		if p.pos >= len(p.src) {
			return cond{}, p.fail(errUnexpectedEnd, "an attribute selector without its ]")
		}
		return cond{}, p.fail(errUnexpectedTokenInAttr, "%q", p.src[p.pos:])
	}
	p.pos++
	return a, nil
}

// pseudo parses what follows a ':'.
func (p *selParser) pseudo() (cond, error) {
	if p.peek() == ':' {
		end := p.pos + 1
		for end < len(p.src) && isNameByte(p.src[end]) {
			end++
		}
		return cond{}, p.fail(errUnsupportedPseudo, "pseudo-element %q", ":"+p.src[p.pos:end])
	}
	if !p.identStart() {
		return cond{}, p.fail(errUnexpectedToken, "a pseudo-class needs a name after :")
	}
	name, err := p.ident()
	if err != nil {
		return cond{}, err
	}
	lname := asciiLower(name)
	if p.peek() != '(' {
		switch lname {
		case "first-child":
			return cond{kind: condNthChild, a: 0, b: 1}, nil
		case "first-of-type":
			return cond{kind: condNthOfType, a: 0, b: 1}, nil
		}
		return cond{}, p.fail(errUnsupportedPseudo, "%q", ":"+name)
	}
	p.pos++
	switch lname {
	case "nth-child", "nth-of-type":
		a, b, err := p.anb()
		if err != nil {
			return cond{}, err
		}
		kind := condNthChild
		if lname == "nth-of-type" {
			kind = condNthOfType
		}
		return cond{kind: kind, a: a, b: b}, nil
	case "not":
		list, err := p.list(true)
		if err != nil {
			return cond{}, err
		}
		if p.peek() != ')' {
			return cond{}, p.fail(errUnexpectedEnd, ":not( without its )")
		}
		p.pos++
		var not []*compound
		for _, cs := range list {
			not = append(not, cs.parts[0])
		}
		return cond{kind: condNot, not: not}, nil
	case "has":
		return cond{}, p.fail(errUnsupportedSyntax, "%q", ":has()")
	}
	return cond{}, p.fail(errUnsupportedPseudo, "%q", ":"+name+"()")
}

// caseInsensitiveAttrs are the attributes whose values selectors compare
// ASCII case-insensitively on HTML elements (HTML's list, which the
// selectors crate under lol-html follows).
var caseInsensitiveAttrs = map[string]bool{
	"accept": true, "accept-charset": true, "align": true, "alink": true, "axis": true,
	"bgcolor": true, "charset": true, "checked": true, "clear": true, "codetype": true,
	"color": true, "compact": true, "declare": true, "defer": true, "dir": true,
	"direction": true, "disabled": true, "enctype": true, "face": true, "frame": true,
	"hreflang": true, "http-equiv": true, "lang": true, "language": true, "link": true,
	"media": true, "method": true, "multiple": true, "nohref": true, "noresize": true,
	"noshade": true, "nowrap": true, "readonly": true, "rel": true, "rev": true,
	"rules": true, "scope": true, "scrolling": true, "selected": true, "shape": true,
	"target": true, "text": true, "type": true, "valign": true, "valuetype": true,
	"vlink": true,
}
