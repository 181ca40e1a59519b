package jsworker

import (
	"github.com/dwk/fleet/appliance/worker"
)

// Methods implements worker.RPCWorker: the methods of the default export's
// WorkerEntrypoint class, called through service bindings.
func (w *Worker) Methods(env *worker.Env) worker.Methods {
	return nil
}
