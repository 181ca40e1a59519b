package htmlrewriter

import (
	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// install puts the natives on host.htmlrewriter:
//
//   - checkSelector(selector) throws the TypeError lol-html would for a
//     selector it does not support.
//   - newScanner(selectors, kinds) → a scanner for one document, given
//     each registration's selector (null for .onDocument) and handler
//     kinds (a bit set of hasElement…hasEnd).
//   - utf8Chunks(string, size) → the string's UTF-8 in Uint8Arrays of
//     size bytes, for feeding a document in pieces.
//
// A scanner has feed(chunk, final) → entries (see flatten),
// join(ops) → Uint8Array and joinText(ops) → string: the output of the
// last feed, from ops that are strings and [start, end) pairs of offsets
// into that feed's window.
func install(iso *jsrt.Isolate, host *goja.Object) error {
	rt := iso.Runtime()
	h := rt.NewObject()
	host.Set("htmlrewriter", h)
	h.Set("checkSelector", func(c goja.FunctionCall) goja.Value {
		if _, err := parseSelector(c.Argument(0).String()); err != nil {
			iso.Throw(jsrt.Errorf("TypeError", "Parser error: %v", err))
		}
		return goja.Undefined()
	})
	h.Set("newScanner", func(c goja.FunctionCall) goja.Value {
		var sels []any
		var kinds []int64
		if err := rt.ExportTo(c.Argument(0), &sels); err != nil {
			iso.Throw(jsrt.Errorf("TypeError", "newScanner: the selectors must be an array"))
		}
		if err := rt.ExportTo(c.Argument(1), &kinds); err != nil || len(kinds) != len(sels) {
			iso.Throw(jsrt.Errorf("TypeError", "newScanner: the kinds must be an array as long as the selectors"))
		}
		regs := make([]registration, len(sels))
		for i, v := range sels {
			regs[i].kinds = handlerKinds(kinds[i])
			src, ok := v.(string)
			if !ok {
				continue
			}
			sel, err := parseSelector(src)
			if err != nil {
				iso.Throw(jsrt.Errorf("TypeError", "Parser error: %v", err))
			}
			regs[i].sel = sel
		}
		return scannerObject(iso, newScanner(compile(regs)))
	})
	h.Set("utf8Chunks", func(c goja.FunctionCall) goja.Value {
		b := []byte(c.Argument(0).String())
		size := int(c.Argument(1).ToInteger())
		if size < 1 {
			size = 1
		}
		var chunks []any
		for len(b) > 0 {
			n := min(size, len(b))
			chunks = append(chunks, iso.NewUint8Array(append([]byte(nil), b[:n]...)))
			b = b[n:]
		}
		return rt.NewArray(chunks...)
	})
	return nil
}

// scannerObject wraps s for JavaScript.
func scannerObject(iso *jsrt.Isolate, s *scanner) goja.Value {
	rt := iso.Runtime()
	o := rt.NewObject()
	o.Set("feed", func(c goja.FunctionCall) goja.Value {
		var chunk []byte
		switch v := c.Argument(0); {
		case goja.IsUndefined(v) || goja.IsNull(v):
		default:
			if str, ok := v.Export().(string); ok {
				chunk = []byte(str)
			} else if b, ok := iso.Bytes(v); ok {
				chunk = b // copied into the window by feed
			} else {
				iso.Throw(jsrt.Errorf("TypeError", "HTMLRewriter: the body gave a chunk that is neither bytes nor a string"))
			}
		}
		consumed, entries, err := s.feed(chunk, c.Argument(1).ToBoolean())
		if err != nil {
			iso.Throw(jsrt.Errorf("TypeError", "%v", err))
		}
		return rt.NewArray(s.flatten(consumed, entries)...)
	})
	o.Set("join", func(c goja.FunctionCall) goja.Value {
		return iso.NewUint8Array(join(iso, s.window, c.Argument(0)))
	})
	o.Set("joinText", func(c goja.FunctionCall) goja.Value {
		return rt.ToValue(string(join(iso, s.window, c.Argument(0))))
	})
	return o
}

// flatten lays entries out in one array for JavaScript to walk:
// consumed, then per entry kind, start, end, the number of registrations
// and the registrations, then by kind:
//
//	start tag: name, raw name, [name, value, raw]… flat, selfClosing, canHaveContent, namespace
//
// (an attribute's raw text is null when it is name="value").
//
//	end tag:   name, pops
//	text:      text, last
//	comment:   text
//	doctype:   name, publicId, systemId (null when absent)
func (s *scanner) flatten(consumed int, entries []entry) []any {
	n := 1
	for i := range entries {
		n += 4 + len(entries[i].regs) + 6
	}
	out := make([]any, 0, n)
	out = append(out, consumed)
	for i := range entries {
		e := &entries[i]
		out = append(out, int(e.kind), e.start, e.end, len(e.regs))
		for _, r := range e.regs {
			out = append(out, r)
		}
		switch e.kind {
		case entryStart:
			attrs := make([]any, 0, 3*len(e.attrs))
			s.eachAttr(e, func(name, value, raw string) {
				if raw == "" {
					attrs = append(attrs, name, value, nil)
				} else {
					attrs = append(attrs, name, value, raw)
				}
			})
			out = append(out, e.name, e.rawName, attrs, e.selfClosing, e.canHave, int(e.ns))
		case entryEnd:
			out = append(out, e.name, e.pops)
		case entryText:
			out = append(out, e.text, e.last)
		case entryComment:
			out = append(out, e.text)
		case entryDoctype:
			out = append(out, orNull(e.doctype.name), orNull(e.doctype.publicID), orNull(e.doctype.systemID))
		}
	}
	return out
}

func orNull(b []byte) any {
	if b == nil {
		return goja.Null()
	}
	return string(b)
}

// join builds output from ops: strings, as UTF-8, and pairs of offsets
// into window.
func join(iso *jsrt.Isolate, window []byte, v goja.Value) []byte {
	ops, ok := v.Export().([]any)
	if !ok {
		iso.Throw(jsrt.Errorf("TypeError", "join: the ops must be an array"))
	}
	size := 0
	for i := 0; i < len(ops); i++ {
		if s, ok := ops[i].(string); ok {
			size += len(s)
		} else if i+1 < len(ops) {
			a, b := offset(ops[i]), offset(ops[i+1])
			if a < 0 || b < a || b > len(window) {
				iso.Throw(jsrt.Errorf("RangeError", "join: [%d, %d) is outside the window of %d bytes", a, b, len(window)))
			}
			size += b - a
			i++
		}
	}
	out := make([]byte, 0, size)
	for i := 0; i < len(ops); i++ {
		if s, ok := ops[i].(string); ok {
			out = append(out, s...)
		} else if i+1 < len(ops) {
			out = append(out, window[offset(ops[i]):offset(ops[i+1])]...)
			i++
		}
	}
	return out
}

func offset(v any) int {
	switch x := v.(type) {
	case int64:
		return int(x)
	case float64:
		return int(x)
	case int:
		return x
	}
	return -1
}
