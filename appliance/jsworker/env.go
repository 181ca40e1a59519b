package jsworker

import (
	"encoding/json"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/worker"
)

// newEnv makes the env object of the host's Env e: one property per
// binding, as the worker's configuration names them. It also fills the
// env that `import { env } from "cloudflare:workers"` shows. Call it on
// the loop.
func newEnv(st *isoState, e *worker.Env) goja.Value {
	rt := st.iso.Runtime()
	b := st.v.cfg.Bindings
	env := rt.NewObject()
	for _, name := range b.Vars {
		if v, ok := e.Var(name); ok {
			env.Set(name, v)
		}
	}
	for name, text := range b.JSONVars {
		var v any
		if json.Unmarshal([]byte(text), &v) == nil {
			env.Set(name, parseJSON(rt, text))
		}
	}
	// Every secret e holds, including those the wrangler file does not
	// name: one put with dwk secret put while the worker runs.
	for _, name := range e.SecretNames() {
		s, _ := e.Secret(name)
		env.Set(name, s.Reveal())
	}
	addBindings(st, env, e)
	if st.v.cfg.NodeCompat && st.v.cfg.ProcessEnv {
		if set, ok := goja.AssertFunction(st.iso.Internal().Get("setProcessEnv")); ok {
			set(goja.Undefined(), env)
		}
	}
	if g, ok := goja.AssertFunction(st.iso.Internal().Get("globalBindings")); ok {
		g(goja.Undefined(), env)
	}
	if imp, ok := st.iso.Internal().Get("importableEnv").(*goja.Object); ok {
		for _, k := range imp.Keys() {
			if env.Get(k) == nil {
				imp.Delete(k)
			}
		}
		for _, k := range env.Keys() {
			imp.Set(k, env.Get(k))
		}
	}
	return env
}

// parseJSON is JSON.parse(text).
func parseJSON(rt *goja.Runtime, text string) goja.Value {
	parse, _ := goja.AssertFunction(rt.Get("JSON").ToObject(rt).Get("parse"))
	v, err := parse(goja.Undefined(), rt.ToValue(text))
	if err != nil {
		return goja.Undefined()
	}
	return v
}
