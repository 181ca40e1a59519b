package server

import (
	"fmt"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/worker"
)

// secretBindings reads a worker's secret bindings. An error names the
// binding and where its value was to come from, never the value.
func secretBindings(refs map[string]*config.Secret) (map[string]worker.Secret, error) {
	out := make(map[string]worker.Secret, len(refs))
	for name, ref := range refs {
		if ref == nil {
			return nil, fmt.Errorf("secret %s: no value", name)
		}
		v, err := ref.Resolve()
		if err != nil {
			return nil, fmt.Errorf("secret %s: %w", name, err)
		}
		out[name] = worker.Secret(v)
	}
	return out, nil
}
