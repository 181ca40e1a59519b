package url

import (
	_ "embed"
	"strings"

	"github.com/dop251/goja"
	"github.com/dunglas/go-urlpattern"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// The prelude, in the order its parts depend on one another.
var (
	//go:embed searchparams.js
	searchParamsJS string
	//go:embed url.js
	urlJS string
	//go:embed urlpattern.js
	urlPatternJS string
)

// Extension defines URL, URLSearchParams and URLPattern.
var Extension = jsrt.Extension{
	Name:    "url",
	Install: install,
	JS:      strings.Join([]string{searchParamsJS, urlJS, urlPatternJS}, "\n"),
}

// install puts the natives on host.url.
func install(iso *jsrt.Isolate, host *goja.Object) error {
	rt := iso.Runtime()
	n := rt.NewObject()
	componentsValue := func(c [nComponents]string) goja.Value {
		vs := make([]any, nComponents)
		for k, s := range c {
			vs[k] = s
		}
		return rt.NewArray(vs...)
	}
	optString := func(v goja.Value) *string {
		if goja.IsUndefined(v) {
			return nil
		}
		s := v.String()
		return &s
	}
	natives := map[string]func(goja.FunctionCall) goja.Value{
		// parse(input, base?) → components, or null.
		"parse": func(c goja.FunctionCall) goja.Value {
			if goja.IsUndefined(c.Argument(1)) {
				if fc, ok := fastComponents(c.Argument(0).String()); ok {
					return componentsValue(fc)
				}
			}
			u, ok := parse(c.Argument(0).String(), optString(c.Argument(1)))
			if !ok {
				return goja.Null()
			}
			return componentsValue(components(u))
		},
		// set(href, field, value) → components, or null for an invalid
		// href value.
		"set": func(c goja.FunctionCall) goja.Value {
			u, ok := set(c.Argument(0).String(), c.Argument(1).String(), c.Argument(2).String())
			if !ok {
				return goja.Null()
			}
			return componentsValue(components(u))
		},
		// usv(string) → the string with lone surrogates replaced by
		// U+FFFD: the same string when it has none.
		"usv": func(c goja.FunctionCall) goja.Value {
			return toUSVString(rt, c.Argument(0))
		},
		// parseQuery(string) → [name, value, name, value...].
		"parseQuery": func(c goja.FunctionCall) goja.Value {
			pairs := parseQuery(c.Argument(0).String())
			vs := make([]any, len(pairs))
			for k, s := range pairs {
				vs[k] = s
			}
			return rt.NewArray(vs...)
		},
		// newPattern(input, baseURL?, ignoreCase) → a handle; a TypeError
		// for a pattern that does not compile.
		"newPattern": func(c goja.FunctionCall) goja.Value {
			p, err := newPattern(c.Argument(0), optString(c.Argument(1)), c.Argument(2).ToBoolean())
			if err != nil {
				iso.Throw(jsrt.Errorf("TypeError", "Failed to construct 'URLPattern': %v", err))
			}
			return rt.ToValue(p)
		},
		// patternInfo(handle) → the component patterns and hasRegExpGroups.
		"patternInfo": func(c goja.FunctionCall) goja.Value {
			p := patternArg(iso, c.Argument(0))
			s := patternStrings(p)
			vs := make([]any, 0, len(s)+1)
			for _, x := range s {
				vs = append(vs, x)
			}
			return rt.NewArray(append(vs, p.HasRegexpGroups())...)
		},
		// exec(handle, input, baseURL?) → the match without inputs, or null.
		"exec": func(c goja.FunctionCall) goja.Value {
			v, err := execPattern(rt, patternArg(iso, c.Argument(0)), c.Argument(1), optString(c.Argument(2)))
			if err != nil {
				iso.Throw(jsrt.Errorf("TypeError", "%v", err))
			}
			return v
		},
	}
	for name, fn := range natives {
		if err := n.Set(name, fn); err != nil {
			return err
		}
	}
	return host.Set("url", n)
}

func patternArg(iso *jsrt.Isolate, v goja.Value) *urlpattern.URLPattern {
	p, ok := v.Export().(*urlpattern.URLPattern)
	if !ok {
		iso.Throw(jsrt.Errorf("TypeError", "Illegal invocation: not a URLPattern"))
	}
	return p
}
