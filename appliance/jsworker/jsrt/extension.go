package jsrt

import (
	"fmt"
	"strings"
	"sync"

	"github.com/dop251/goja"
)

// Extension adds globals to every isolate: natives written in Go and a
// prelude written in JavaScript.
type Extension struct {
	// Name identifies the extension in errors and stack traces.
	Name string
	// Install adds the extension's natives to host before any prelude
	// runs. It may be nil.
	Install func(iso *Isolate, host *goja.Object) error
	// JS is the body of a function called as function(host, internal,
	// global) in strict mode, after every Install and after the preludes
	// of the extensions before it. host holds the natives; internal is
	// shared by all preludes (and read by Go through Isolate.Internal) for
	// what must not be global; global is globalThis. It may be empty.
	JS string
}

// preludes caches the compiled prelude of each list of extensions, by
// their names in order: every isolate of a process shares it.
var preludes sync.Map // string → *preludeEntry

type preludeEntry struct {
	once sync.Once
	prg  *goja.Program
	err  error
}

// compilePrelude compiles the preludes of exts into one program that
// evaluates to a function(host, internal, global).
func compilePrelude(exts []Extension) (*goja.Program, error) {
	names := make([]string, len(exts))
	for i, e := range exts {
		names[i] = e.Name
	}
	key := strings.Join(names, "\x00")
	v, _ := preludes.LoadOrStore(key, &preludeEntry{})
	pe := v.(*preludeEntry)
	pe.once.Do(func() {
		var b strings.Builder
		b.WriteString("(function(host, internal, global) {\n\"use strict\";\n")
		for _, e := range exts {
			if e.JS == "" {
				continue
			}
			fmt.Fprintf(&b, "(function %s(host, internal, global) {\n%s\n}).call(global, host, internal, global);\n", identifier(e.Name), e.JS)
		}
		b.WriteString("})")
		pe.prg, pe.err = goja.Compile("dwk:prelude", b.String(), true)
		if pe.err != nil {
			pe.err = fmt.Errorf("compile the prelude (%s): %w", strings.Join(names, ", "), pe.err)
		}
	})
	return pe.prg, pe.err
}

// identifier turns an extension name into a function name for stack
// traces.
func identifier(name string) string {
	var b strings.Builder
	b.WriteString("prelude_")
	for _, r := range name {
		if r == '_' || r == '$' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}
