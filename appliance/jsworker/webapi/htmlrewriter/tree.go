package htmlrewriter

// namespace is an element's namespace.
type namespace uint8

const (
	nsHTML namespace = iota
	nsSVG
	nsMathML
)

// An openElement is an element whose end has not been seen: what
// selectors need of it as an ancestor (its compound bits, its counts of
// children), and what closing it undoes.
type openElement struct {
	name    string
	childNS namespace // the namespace of the elements inside it
	bits    []uint64
	// tracked says JavaScript holds an Element for it and must hear of
	// its end.
	tracked bool
	// regs are the registrations whose text or comment handlers it
	// turned on.
	regs     []int
	children int
	ofType   map[string]int
}

// tree is the stack of open elements. Like lol-html it builds no
// document: an end tag closes the innermost open element of its name
// and everything inside it, and an end tag with no open element of its
// name is ignored. Unlike lol-html it also closes the elements HTML's
// parser closes implicitly (see impliedEnds).
type tree struct {
	prog  *program
	stack []openElement
	// chain is the compound bits of the stack, outermost first, with
	// room for the element being matched.
	chain        [][]uint64
	rootChildren int
	rootOfType   map[string]int
	// textOn and commentsOn count, by registration, the open elements
	// that turned its text or comment handlers on.
	textOn, commentsOn []int
}

func newTree(p *program) *tree {
	return &tree{
		prog:       p,
		textOn:     make([]int, len(p.regs)),
		commentsOn: make([]int, len(p.regs)),
	}
}

// currentNS is the namespace of an element that starts now.
func (t *tree) currentNS() namespace {
	if len(t.stack) == 0 {
		return nsHTML
	}
	return t.stack[len(t.stack)-1].childNS
}

func (t *tree) top() *openElement {
	if len(t.stack) == 0 {
		return nil
	}
	return &t.stack[len(t.stack)-1]
}

// addChild counts a new child of the current element and returns its
// 1-based positions among all children and among those named name.
func (t *tree) addChild(name string) (nth, nthType int) {
	children, ofType := &t.rootChildren, &t.rootOfType
	if e := t.top(); e != nil {
		children, ofType = &e.children, &e.ofType
	}
	*children++
	if !t.prog.usesOfType {
		return *children, 0
	}
	if *ofType == nil {
		*ofType = map[string]int{}
	}
	(*ofType)[name]++
	return *children, (*ofType)[name]
}

// chainWith returns the chain with bits, for an element that starts
// now, after its ancestors.
func (t *tree) chainWith(bits []uint64) [][]uint64 {
	if len(t.chain) == cap(t.chain) {
		t.chain = append(make([][]uint64, 0, 2*cap(t.chain)+8), t.chain...)
	}
	return append(t.chain, bits)
}

// push opens an element; bits and regs are copied.
func (t *tree) push(name string, childNS namespace, bits []uint64, tracked bool, regs []int) {
	n := len(t.stack)
	if n < cap(t.stack) {
		t.stack = t.stack[:n+1]
	} else {
		t.stack = append(t.stack, openElement{})
	}
	e := &t.stack[n]
	e.name, e.childNS, e.tracked = name, childNS, tracked
	e.bits = append(e.bits[:0], bits...)
	e.regs = append(e.regs[:0], regs...)
	e.children = 0
	clear(e.ofType)
	for _, r := range regs {
		k := t.prog.regs[r].kinds
		if k&hasText != 0 {
			t.textOn[r]++
		}
		if k&hasComments != 0 {
			t.commentsOn[r]++
		}
	}
	t.chain = append(t.chain[:n], e.bits)
}

// popTo closes stack[i:] and returns how many of them were tracked; if
// names is not nil, it gets their names, innermost first.
func (t *tree) popTo(i int, names *[]string) (tracked int) {
	for j := len(t.stack) - 1; j >= i; j-- {
		e := &t.stack[j]
		if e.tracked {
			tracked++
			if names != nil {
				*names = append(*names, e.name)
			}
		}
		for _, r := range e.regs {
			k := t.prog.regs[r].kinds
			if k&hasText != 0 {
				t.textOn[r]--
			}
			if k&hasComments != 0 {
				t.commentsOn[r]--
			}
		}
	}
	t.stack = t.stack[:i]
	t.chain = t.chain[:i]
	return tracked
}

// lastOpen returns the index of the innermost open element named name,
// or -1.
func (t *tree) lastOpen(name string) int {
	for i := len(t.stack) - 1; i >= 0; i-- {
		if t.stack[i].name == name {
			return i
		}
	}
	return -1
}

// inScope returns the index of the innermost open element named one of
// targets if no element named one of stops (or, with stopForeign, none
// with foreign content) is inside it; else -1.
func (t *tree) inScope(targets, stops []string, stopForeign bool) int {
	for i := len(t.stack) - 1; i >= 0; i-- {
		e := &t.stack[i]
		if contains(targets, e.name) {
			return i
		}
		if contains(stops, e.name) || stopForeign && e.childNS != nsHTML {
			return -1
		}
	}
	return -1
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// foreignRoot returns the index of the outermost element of the
// foreign content the current element is in: the elements from there up
// close when HTML content resumes. It is -1 in HTML content.
func (t *tree) foreignRoot() int {
	i := len(t.stack)
	for i > 0 && t.stack[i-1].childNS != nsHTML {
		i--
	}
	if i == len(t.stack) {
		return -1
	}
	return i
}
