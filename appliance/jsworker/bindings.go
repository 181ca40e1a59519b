package jsworker

import (
	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/worker"
)

// addBindings adds the store bindings of e to env.
func addBindings(st *isoState, env *goja.Object, e *worker.Env) {
}
