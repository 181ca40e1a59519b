package lang

import (
	"errors"
	"sync"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// maxPatterns bounds the process-wide cache of translated patterns; it is
// emptied when full.
const maxPatterns = 4096

var (
	patternsMu sync.Mutex
	patterns   = map[string]*pattern{} // flags "/" source → pattern, nil for a plain one
)

// cachedTranslate is translate with a process-wide cache: the same
// pattern is translated once.
func cachedTranslate(source, flags string) (*pattern, error) {
	key := flags + "/" + source
	patternsMu.Lock()
	p, ok := patterns[key]
	patternsMu.Unlock()
	if ok {
		if p == nil {
			return nil, errPlain
		}
		return p, nil
	}
	p, err := translate(source, flags)
	if err != nil && !errors.Is(err, errPlain) {
		return nil, err
	}
	patternsMu.Lock()
	if len(patterns) >= maxPatterns {
		clear(patterns)
	}
	patterns[key] = p
	patternsMu.Unlock()
	return p, err
}

// compileRegExp(source, flags) returns how goja must compile a pattern
// ({native, nativeFlags, source, flags, names, hasIndices, unicodeSets,
// global, sticky, handle}), or null when it can take it as it is. It
// throws a SyntaxError for an invalid pattern.
func (n *natives) compileRegExp(c goja.FunctionCall) goja.Value {
	source, flags := c.Argument(0).String(), c.Argument(1).String()
	p, err := cachedTranslate(source, flags)
	if errors.Is(err, errPlain) {
		return goja.Null()
	}
	if err != nil {
		n.iso.Throw(jsrt.Errorf("SyntaxError", "Invalid regular expression: /%s/%s: %v", source, flags, err))
	}
	o := n.rt.NewObject()
	o.Set("native", p.native)
	o.Set("nativeFlags", p.nativeFlags)
	o.Set("source", escapeSource(p.source))
	o.Set("rawSource", p.source)
	o.Set("flags", p.flags)
	o.Set("hasIndices", p.hasIndices)
	o.Set("unicodeSets", p.unicodeSets)
	o.Set("global", p.global)
	o.Set("sticky", p.sticky)
	o.Set("handle", p)
	if p.names == nil {
		o.Set("names", goja.Null())
	} else {
		names := make([]any, len(p.names))
		for i, s := range p.names {
			names[i] = s
		}
		o.Set("names", n.rt.NewArray(names...))
	}
	return o
}

// regexpSpecies is the getter of RegExp[Symbol.species], in Go because
// goja's own split reads it on every call: RegExp itself answers goja's
// constructor (so split keeps its fast path), a subclass itself.
func (n *natives) regexpSpecies(c goja.FunctionCall) goja.Value {
	if c.This == n.regexp && n.regexp != nil {
		return n.nativeRegExp
	}
	return c.This
}

// setRegExp(wrapper, native) tells regexpSpecies the two constructors.
func (n *natives) setRegExp(c goja.FunctionCall) goja.Value {
	n.regexp, _ = c.Argument(0).(*goja.Object)
	n.nativeRegExp, _ = c.Argument(1).(*goja.Object)
	return goja.Undefined()
}
