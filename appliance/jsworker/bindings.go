package jsworker

import (
	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsbind"
	"github.com/dwk/fleet/appliance/worker"
)

// addBindings adds the store bindings of e to env, by the names the
// worker's configuration gives them.
func addBindings(st *isoState, env *goja.Object, e *worker.Env) {
	iso := st.iso
	b := st.v.cfg.Bindings
	for _, name := range b.D1 {
		env.Set(name, jsbind.D1(iso, e.D1(name)))
	}
	for _, name := range b.R2 {
		env.Set(name, jsbind.R2(iso, e.R2(name)))
	}
	for _, name := range b.KV {
		env.Set(name, jsbind.KV(iso, e.KV(name)))
	}
	for _, name := range b.Queues {
		env.Set(name, jsbind.Queue(iso, e.Queue(name)))
	}
	for _, name := range b.Objects {
		env.Set(name, jsbind.ObjectNamespace(iso, e.Object(name)))
	}
	for _, name := range b.Services {
		env.Set(name, jsbind.Service(iso, e.Service(name)))
	}
	if a := st.v.cfg.Assets; a != nil && a.Binding != "" {
		env.Set(a.Binding, jsbind.Service(iso, assetsService{a.Server}))
	}
}
