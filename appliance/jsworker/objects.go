package jsworker

import (
	"github.com/dwk/fleet/appliance/worker"
)

// objectClass is the worker.ObjectClass of the exported class js.
func (w *Worker) objectClass(js string) worker.ObjectClass {
	return nil
}
