package lang

import (
	"embed"
	"errors"
	"strings"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// Extension fills in the language features goja lacks. It must come right
// after the core, before every other extension.
var Extension = jsrt.Extension{Name: "lang", Install: install, JS: prelude()}

//go:embed *.js
var sources embed.FS

// preludeParts are the prelude's parts, in the order they run; the files
// of one part share a block, so the Intl files see one another's names.
var preludeParts = [][]string{
	{"regexp.js"},
	{"builtins.js"},
	{"iterator.js"},
	{"intl_locale.js", "intl_number.js", "intl_datetime.js", "intl_collator.js", "intl_plural.js",
		"intl_relativetime.js", "intl_list.js", "intl_segmenter.js", "intl_install.js"},
}

// prelude joins the parts, each in a block of its own so that their
// top-level names do not collide.
func prelude() string {
	var b strings.Builder
	for _, files := range preludeParts {
		b.WriteString("{\n")
		for _, name := range files {
			src, err := sources.ReadFile(name)
			if err != nil {
				panic("lang: missing prelude file " + name)
			}
			b.WriteString("// ---- " + name + "\n")
			b.Write(src)
			b.WriteString("\n")
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// natives are the Go functions of one isolate, on host.lang.
type natives struct {
	iso *jsrt.Isolate
	rt  *goja.Runtime

	regexp, nativeRegExp *goja.Object  // the RegExp wrapper and goja's own
	nativeExec           goja.Callable // goja's RegExp.prototype.exec
	kPattern             *goja.Symbol  // a translated regexp's *pattern
}

func install(iso *jsrt.Isolate, host *goja.Object) error {
	n := &natives{iso: iso, rt: iso.Runtime(), kPattern: goja.NewSymbol("dwk.regexp.pattern")}
	rx := n.rt.Get("RegExp").ToObject(n.rt).Get("prototype").ToObject(n.rt)
	var ok bool
	if n.nativeExec, ok = goja.AssertFunction(rx.Get("exec")); !ok {
		return errors.New("no RegExp.prototype.exec")
	}
	o := n.rt.NewObject()
	o.Set("kPattern", n.kPattern)
	for name, fn := range map[string]func(goja.FunctionCall) goja.Value{
		"compileRegExp": n.compileRegExp,
		"exec":          n.exec,
		"regexpSpecies": n.regexpSpecies,
		"setRegExp":     n.setRegExp,
		"isWellFormed":  n.isWellFormed,
		"toWellFormed":  n.toWellFormed,
		"transfer":      n.transfer,
		"detached":      n.detached,
		"callSites":     n.callSites,
		"sumPrecise":    n.sumPrecise,
	} {
		if err := o.Set(name, fn); err != nil {
			return err
		}
	}
	n.installIntl(o)
	return host.Set("lang", o)
}
