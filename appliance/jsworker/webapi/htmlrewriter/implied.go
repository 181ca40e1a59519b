package htmlrewriter

// The end tags HTML's parser implies when an element starts, for the
// common cases: an element that closes an open p, a list item or
// definition that closes the previous one, table rows and cells, options,
// headings, and head closed by body. Each close happens only when the
// element to close is "in scope", i.e. no element named in the stop list
// sits inside it; this approximates the tree builder's scopes without
// building a tree.

var (
	// closesP are the elements whose start closes an open p.
	closesP = map[string]bool{
		"address": true, "article": true, "aside": true, "blockquote": true, "center": true,
		"details": true, "dialog": true, "dir": true, "div": true, "dl": true, "fieldset": true,
		"figcaption": true, "figure": true, "footer": true, "form": true, "header": true,
		"hgroup": true, "hr": true, "main": true, "menu": true, "nav": true, "ol": true, "p": true,
		"pre": true, "listing": true, "search": true, "section": true, "summary": true,
		"table": true, "ul": true, "plaintext": true, "xmp": true,
		"li": true, "dd": true, "dt": true,
		"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	}
	headings = []string{"h1", "h2", "h3", "h4", "h5", "h6"}

	buttonScope = []string{"applet", "caption", "html", "table", "td", "th", "marquee", "object", "template", "button"}
	listScope   = []string{"applet", "caption", "html", "table", "td", "th", "marquee", "object", "template", "button",
		"body", "ul", "ol", "menu", "dl", "tr", "tbody", "thead", "tfoot", "select"}
	tableScope    = []string{"table", "template", "html"}
	rowScope      = []string{"tr", "table", "template", "html"}
	tableSections = []string{"thead", "tbody", "tfoot"}
)

// impliedEnds closes the elements a start tag named name closes in HTML
// content, at the offset at where the start tag begins.
func (s *scanner) impliedEnds(name string, at int) {
	t := s.tree
	switch name {
	case "li":
		s.closeAt(t.inScope([]string{"li"}, listScope, false), at)
	case "dd", "dt":
		s.closeAt(t.inScope([]string{"dd", "dt"}, listScope, false), at)
	case "option":
		if e := t.top(); e != nil && e.name == "option" {
			s.closeAt(len(t.stack)-1, at)
		}
		return
	case "optgroup":
		if e := t.top(); e != nil && e.name == "option" {
			s.closeAt(len(t.stack)-1, at)
		}
		if e := t.top(); e != nil && e.name == "optgroup" {
			s.closeAt(len(t.stack)-1, at)
		}
		return
	case "tr":
		s.closeAt(t.inScope([]string{"tr"}, tableScope, false), at)
		return
	case "td", "th":
		s.closeAt(t.inScope([]string{"td", "th"}, rowScope, false), at)
		return
	case "thead", "tbody", "tfoot":
		s.closeAt(t.inScope(tableSections, tableScope, false), at)
		return
	case "body":
		s.closeAt(t.inScope([]string{"head"}, nil, false), at)
		return
	}
	if closesP[name] {
		s.closeAt(t.inScope([]string{"p"}, buttonScope, true), at)
	}
	if contains(headings, name) {
		if e := t.top(); e != nil && contains(headings, e.name) {
			s.closeAt(len(t.stack)-1, at)
		}
	}
}

// closeAt closes stack[i:] (nothing for i < 0) at offset at. Each
// tracked element gets an implied end tag of its own, innermost first,
// so that each gets its own end-tag content (a written end tag that
// closes several elements is one token for all, as in lol-html).
func (s *scanner) closeAt(i, at int) {
	if i < 0 {
		return
	}
	s.closed = s.closed[:0]
	s.tree.popTo(i, &s.closed)
	for _, name := range s.closed {
		s.out = append(s.out, entry{kind: entryEnd, start: at, end: at, name: name, pops: 1})
	}
}
