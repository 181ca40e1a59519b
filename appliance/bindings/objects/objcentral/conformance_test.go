package objcentral_test

import (
	"context"
	"testing"

	"github.com/dwk/fleet/appliance/bindings/objects/objcentral"
	"github.com/dwk/fleet/appliance/bindings/objects/objtest"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/libsqlserver"
)

// centralRuntime is a one-replica central runtime as objtest drives it;
// Close also releases the replica's leases, as a replica's shutdown does.
type centralRuntime struct {
	*replica
}

var _ objtest.Runtime = centralRuntime{}

func (c centralRuntime) Namespace(binding, class string) (worker.ObjectNamespace, error) {
	return c.rt.Namespace(binding, class)
}
func (c centralRuntime) ActiveObjects() int              { return c.rt.ActiveObjects() }
func (c centralRuntime) Asleep() int                     { return c.rt.Asleep() }
func (c centralRuntime) Drain(ctx context.Context) error { return c.rt.Drain(ctx) }
func (c centralRuntime) Close(ctx context.Context) error {
	if !c.closed.CompareAndSwap(false, true) {
		return nil
	}
	err := c.rt.Close(ctx)
	if lerr := c.leases.Close(ctx); err == nil {
		err = lerr
	}
	return err
}

// TestConformance runs the object runtime's conformance suite, unchanged,
// against a runtime on central storage: leases, per-object libSQL
// databases with epoch guards, and the coordination KV's alarm index.
func TestConformance(t *testing.T) {
	srv := libsqlserver.Start(t)
	objtest.Run(t, func(t *testing.T) objtest.Opener {
		b := newBackend(t, srv)
		return func(t *testing.T, o objtest.Options) objtest.Runtime {
			r := startReplica(t, b, objcentral.StaticMembers(nil), replicaOptions{name: "solo", objects: o})
			return centralRuntime{r}
		}
	})
}
