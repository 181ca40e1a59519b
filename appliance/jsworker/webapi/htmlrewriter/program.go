package htmlrewriter

// handlerKinds are the handlers one registration (an .on() or an
// .onDocument() call) has.
type handlerKinds uint8

const (
	hasElement handlerKinds = 1 << iota
	hasComments
	hasText
	hasDoctype
	hasEnd
)

// A registration is one .on(selector, handlers) or, with a nil selector,
// one .onDocument(handlers), in the order the rewriter got them, which is
// the order their handlers run in.
type registration struct {
	sel   selector
	kinds handlerKinds
}

// A program is a rewriter's registrations, compiled for matching.
type program struct {
	regs []registration
	// compounds are every compound of every selector, by bit.
	compounds []*compound
	words     int // len of a bit set
	// usesOfType says whether any selector counts siblings by name.
	usesOfType bool
	// docText, docComments, docDoctype are the document registrations
	// with those handlers: they see every text chunk, comment or doctype.
	docText, docComments, docDoctype []bool
	anyDocText, anyDocComments       bool
	anyDoctype                       bool
}

// compile numbers the compounds of regs' selectors.
func compile(regs []registration) *program {
	p := &program{
		regs:        regs,
		docText:     make([]bool, len(regs)),
		docComments: make([]bool, len(regs)),
		docDoctype:  make([]bool, len(regs)),
	}
	var visit func(c *compound)
	visit = func(c *compound) {
		for _, k := range c.conds {
			if k.kind == condNthOfType {
				p.usesOfType = true
			}
			for _, n := range k.not {
				visit(n)
			}
		}
	}
	for i, r := range regs {
		if r.sel == nil {
			p.docText[i] = r.kinds&hasText != 0
			p.docComments[i] = r.kinds&hasComments != 0
			p.docDoctype[i] = r.kinds&hasDoctype != 0
			p.anyDocText = p.anyDocText || p.docText[i]
			p.anyDocComments = p.anyDocComments || p.docComments[i]
			p.anyDoctype = p.anyDoctype || p.docDoctype[i]
			continue
		}
		for _, cs := range r.sel {
			for _, c := range cs.parts {
				c.bit = len(p.compounds)
				p.compounds = append(p.compounds, c)
				visit(c)
			}
		}
	}
	p.words = (len(p.compounds) + 63) / 64
	return p
}

// bits evaluates every compound on e into set.
func (p *program) bits(e *element, set []uint64) {
	clear(set)
	for i, c := range p.compounds {
		if c.matches(e) {
			set[i/64] |= 1 << (i % 64)
		}
	}
}

func hasBit(set []uint64, bit int) bool {
	return set[bit/64]&(1<<(bit%64)) != 0
}

// matches says whether sel matches the element whose compound bits are
// at position pos of chain (its ancestors before it, outermost first).
func (sel selector) matches(chain [][]uint64, pos int) bool {
	for _, cs := range sel {
		if cs.matchesAt(len(cs.parts)-1, chain, pos) {
			return true
		}
	}
	return false
}

// matchesAt matches parts[:i+1] with parts[i] on the element at pos.
func (cs *complexSelector) matchesAt(i int, chain [][]uint64, pos int) bool {
	if !hasBit(chain[pos], cs.parts[i].bit) {
		return false
	}
	if i == 0 {
		return true
	}
	if cs.combs[i-1] == child {
		return pos > 0 && cs.matchesAt(i-1, chain, pos-1)
	}
	for a := pos - 1; a >= 0; a-- {
		if cs.matchesAt(i-1, chain, a) {
			return true
		}
	}
	return false
}
