package htmlrewriter

import (
	"bytes"

	"golang.org/x/net/html"
)

// entryKind is what an entry stands for.
type entryKind uint8

const (
	// entryStart is a start tag with element handlers to call.
	entryStart entryKind = 1 + iota
	// entryEnd is an end tag, written or implied, that closes tracked
	// elements.
	entryEnd
	// entryText is a chunk of text that text handlers see.
	entryText
	// entryComment is a comment that comment handlers see.
	entryComment
	// entryDoctype is a DOCTYPE that doctype handlers see.
	entryDoctype
)

// An entry is a token JavaScript has handlers for. start and end are its
// raw bytes in the window of the feed that produced it; the bytes between
// entries are markup no handler sees, which JavaScript copies through.
type entry struct {
	kind       entryKind
	start, end int
	// regs are the registrations whose handlers see the token, in the
	// order they run.
	regs []int

	// Start and end tags.
	name        string    // lower case
	rawName     string    // start tags: as written
	attrs       []rawAttr // start tags: offsets from start
	selfClosing bool
	canHave     bool
	ns          namespace
	pops        int // end tags: how many tracked elements close

	// Text and comments.
	text string
	last bool

	doctype doctype
}

// A scanner reads one document for one rewriter: it tokenizes it chunk
// by chunk, keeps the open elements, matches selectors and reports the
// entries JavaScript must handle. It is not safe for concurrent use.
type scanner struct {
	prog *program
	tree *tree

	tail   []byte // the start of a token the last chunk cut off
	window []byte // the bytes the last feed consumed
	rawTag string // the raw text element the tokenizer is inside, or ""
	ended  bool
	// waitFor is the size the window must reach before it is tokenized
	// again, when a long token did not end in the last one.
	waitFor int
	// scanned counts the bytes tokenized, which is more than the input
	// by what was tokenized again after a chunk cut a token off.
	scanned int

	inText   bool  // a text node is open
	textRegs []int // the registrations that see it

	out       []entry
	arena     []int     // the regs of out
	attrArena []rawAttr // the attrs of out
	closed    []string  // scratch for closeAt
	attrs     []rawAttr
	cur       []uint64
	names     map[string]string
	lower     []byte
}

func newScanner(p *program) *scanner {
	return &scanner{
		prog:  p,
		tree:  newTree(p),
		cur:   make([]uint64, p.words),
		names: map[string]string{},
	}
}

// regsOf copies regs into the arena for an entry.
func (s *scanner) regsOf(regs []int) []int {
	start := len(s.arena)
	s.arena = append(s.arena, regs...)
	return s.arena[start:len(s.arena):len(s.arena)]
}

// intern returns the lower-case name as a string, allocating once per
// distinct name.
func (s *scanner) intern(b []byte) string {
	s.lower = append(s.lower[:0], b...)
	for i, c := range s.lower {
		if 'A' <= c && c <= 'Z' {
			s.lower[i] = c + 'a' - 'A'
		}
	}
	if v, ok := s.names[string(s.lower)]; ok {
		return v
	}
	v := string(s.lower)
	if len(s.names) < 4096 {
		s.names[v] = v
	}
	return v
}

// activeText sets s.textRegs to the registrations whose text handlers
// see text now.
func (s *scanner) activeText() {
	s.textRegs = s.textRegs[:0]
	for r := range s.prog.regs {
		if s.prog.docText[r] || s.tree.textOn[r] > 0 {
			s.textRegs = append(s.textRegs, r)
		}
	}
}

func (s *scanner) onText(raw []byte, start, end int) {
	if !s.inText {
		s.inText = true
		s.activeText()
	}
	if len(s.textRegs) == 0 {
		return
	}
	text := raw
	if bytes.HasPrefix(text, []byte("<![CDATA[")) {
		text = bytes.TrimSuffix(text[len("<![CDATA["):], []byte("]]>"))
	}
	s.out = append(s.out, entry{kind: entryText, start: start, end: end, text: string(text), regs: s.regsOf(s.textRegs)})
}

// endText ends the open text node, if any, at offset at: its handlers
// get a last, empty chunk, as lol-html gives them.
func (s *scanner) endText(at int) {
	if !s.inText {
		return
	}
	s.inText = false
	if len(s.textRegs) > 0 {
		s.out = append(s.out, entry{kind: entryText, start: at, end: at, last: true, regs: s.regsOf(s.textRegs)})
	}
}

func (s *scanner) onStartTag(z *html.Tokenizer, raw []byte, start, end int) {
	s.endText(start)
	t := parseStartTag(raw, s.attrs)
	s.attrs = t.attrs
	name := s.intern(raw[t.name[0]:t.name[1]])

	if s.tree.currentNS() != nsHTML && (exitsForeign[name] || name == "font" && hasAttr(raw, t.attrs, "color", "face", "size")) {
		s.closeAt(s.tree.foreignRoot(), start)
	}
	if s.tree.currentNS() == nsHTML {
		s.impliedEnds(name, start)
	}
	ns := s.tree.currentNS()
	switch name {
	case "svg":
		ns = nsSVG
	case "math":
		ns = nsMathML
	}
	childNS := ns
	canHave := !t.selfClosing
	if ns == nsHTML {
		canHave = !voidElements[name]
	}
	switch {
	case ns == nsSVG && (name == "foreignobject" || name == "desc" || name == "title"),
		ns == nsMathML && (name == "mi" || name == "mo" || name == "mn" || name == "ms" || name == "mtext"),
		ns == nsMathML && name == "annotation-xml" && htmlEncoding(raw, t.attrs):
		childNS = nsHTML
	}

	nth, nthType := s.tree.addChild(name)
	el := element{name: name, html: ns == nsHTML, raw: raw, attrs: t.attrs, nth: nth, nthType: nthType}
	s.prog.bits(&el, s.cur)
	chain := s.tree.chainWith(s.cur)
	var elemRegs, onRegs []int
	for r, reg := range s.prog.regs {
		if reg.sel == nil || !reg.sel.matches(chain, len(chain)-1) {
			continue
		}
		if reg.kinds&hasElement != 0 {
			elemRegs = append(elemRegs, r)
		}
		if canHave && reg.kinds&(hasText|hasComments) != 0 {
			onRegs = append(onRegs, r)
		}
	}
	if len(elemRegs) > 0 {
		first := len(s.attrArena)
		s.attrArena = append(s.attrArena, t.attrs...)
		attrs := s.attrArena[first:len(s.attrArena):len(s.attrArena)]
		rawName := name
		if string(raw[t.name[0]:t.name[1]]) != name {
			rawName = string(raw[t.name[0]:t.name[1]])
		}
		s.out = append(s.out, entry{
			kind: entryStart, start: start, end: end, regs: s.regsOf(elemRegs),
			name: name, rawName: rawName, attrs: attrs,
			selfClosing: t.selfClosing, canHave: canHave, ns: ns,
		})
	}
	if canHave {
		s.tree.push(name, childNS, s.cur, len(elemRegs) > 0, onRegs)
	}
	switch {
	case ns == nsHTML && rawTextElements[name]:
		s.rawTag = name
	case ns != nsHTML:
		z.NextIsNotRawText()
	}
	z.AllowCDATA(s.tree.currentNS() != nsHTML)
}

func (s *scanner) onEndTag(z *html.Tokenizer, raw []byte, start, end int) {
	s.endText(start)
	s.rawTag = ""
	name := s.intern(endTagName(raw))
	if s.tree.currentNS() != nsHTML && (name == "p" || name == "br") {
		s.closeAt(s.tree.foreignRoot(), start)
	}
	if i := s.tree.lastOpen(name); i >= 0 {
		if n := s.tree.popTo(i, nil); n > 0 {
			s.out = append(s.out, entry{kind: entryEnd, start: start, end: end, name: name, pops: n})
		}
	}
	z.AllowCDATA(s.tree.currentNS() != nsHTML)
}

func (s *scanner) onComment(raw []byte, start, end int) {
	s.endText(start)
	s.rawTag = ""
	if string(raw) == "</>" {
		return // nothing at all in HTML, a comment to the tokenizer
	}
	if !s.prog.anyDocComments && !s.anyOn(s.tree.commentsOn) {
		return
	}
	first := len(s.arena)
	for r := range s.prog.regs {
		if s.prog.docComments[r] || s.tree.commentsOn[r] > 0 {
			s.arena = append(s.arena, r)
		}
	}
	regs := s.arena[first:len(s.arena):len(s.arena)]
	s.out = append(s.out, entry{kind: entryComment, start: start, end: end, text: string(commentText(raw)), regs: regs})
}

func (s *scanner) anyOn(counts []int) bool {
	for _, n := range counts {
		if n > 0 {
			return true
		}
	}
	return false
}

func (s *scanner) onDoctype(raw []byte, start, end int) {
	s.endText(start)
	s.rawTag = ""
	if !s.prog.anyDoctype {
		return
	}
	first := len(s.arena)
	for r := range s.prog.regs {
		if s.prog.docDoctype[r] {
			s.arena = append(s.arena, r)
		}
	}
	regs := s.arena[first:len(s.arena):len(s.arena)]
	s.out = append(s.out, entry{kind: entryDoctype, start: start, end: end, doctype: parseDoctype(raw), regs: regs})
}

// eachAttr calls f with each attribute of a start tag entry of the last
// feed: its lower-case name, its value, and its raw text, or "" when that
// is name="value", as a changed tag is written out.
func (s *scanner) eachAttr(e *entry, f func(name, value, raw string)) {
	raw := s.window[e.start:e.end]
	for _, a := range e.attrs {
		n := raw[a.name[0]:a.name[1]]
		name := s.intern(n)
		value := raw[a.value[0]:a.value[1]]
		canonical := string(n) == name && a.value[0] == a.name[1]+2 && raw[a.name[1]] == '=' &&
			raw[a.value[0]-1] == '"' && a.end == a.value[1]+1
		if canonical {
			f(name, string(value), "")
		} else {
			f(name, string(value), string(raw[a.name[0]:a.end]))
		}
	}
}

// hasAttr says whether the tag has any of the attributes names.
func hasAttr(raw []byte, attrs []rawAttr, names ...string) bool {
	for _, a := range attrs {
		for _, n := range names {
			if asciiEqualFold(raw[a.name[0]:a.name[1]], n) {
				return true
			}
		}
	}
	return false
}

// htmlEncoding says whether an annotation-xml's encoding makes its
// content HTML.
func htmlEncoding(raw []byte, attrs []rawAttr) bool {
	e := element{raw: raw, attrs: attrs}
	v, ok := e.attr("encoding")
	return ok && (asciiOnlyFold(v, "text/html") || asciiOnlyFold(v, "application/xhtml+xml"))
}

var (
	// voidElements cannot have content (lol-html's list).
	voidElements = map[string]bool{
		"area": true, "base": true, "basefont": true, "bgsound": true, "br": true, "col": true,
		"embed": true, "hr": true, "img": true, "input": true, "keygen": true, "link": true,
		"meta": true, "param": true, "source": true, "track": true, "wbr": true,
	}
	// rawTextElements hold text, not markup, up to their end tag (the
	// tokenizer's list).
	rawTextElements = map[string]bool{
		"iframe": true, "noembed": true, "noframes": true, "noscript": true, "plaintext": true,
		"script": true, "style": true, "textarea": true, "title": true, "xmp": true,
	}
	// exitsForeign are the start tags that end SVG or MathML content.
	exitsForeign = map[string]bool{
		"b": true, "big": true, "blockquote": true, "body": true, "br": true, "center": true,
		"code": true, "dd": true, "div": true, "dl": true, "dt": true, "em": true, "embed": true,
		"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "head": true,
		"hr": true, "i": true, "img": true, "li": true, "listing": true, "menu": true, "meta": true,
		"nobr": true, "ol": true, "p": true, "pre": true, "ruby": true, "s": true, "small": true,
		"span": true, "strong": true, "strike": true, "sub": true, "sup": true, "table": true,
		"tt": true, "u": true, "ul": true, "var": true,
	}
)
