package migrate

import (
	"context"
	"testing"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/process/datadir"
	"github.com/dwk/fleet/appliance/server/storeset"
	"github.com/dwk/fleet/test/fleettest"
)

// openDir locks the local data directory dir, marked for the default
// fleet name, and opens its stores; done closes them and unlocks it.
func openDir(t testing.TB, dir string) (path string, st *storeset.Local, done func()) {
	t.Helper()
	d, err := datadir.Open(dir, config.ModeLocal, config.Default().Fleet.Name)
	if err != nil {
		t.Fatal(err)
	}
	st, err = storeset.OpenLocal(context.Background(), d.Path, storeset.LocalOptions{})
	if err != nil {
		d.Close()
		t.Fatal(err)
	}
	return d.Path, st, func() { st.Close(); d.Close() }
}

// provisioned is a provisioned fleet of one replica (not started) whose
// first worker binds the stores the tests fill: KV bulk, R2 blobs, D1 big.
func provisioned(t testing.TB) *fleettest.Fleet {
	t.Helper()
	f := fleettest.New(t, fleettest.Options{Replicas: 1, Edit: func(i int, c *config.Config) {
		c.Workers[0].Bindings.KV = map[string]string{"BULK": "bulk"}
		c.Workers[0].Bindings.R2 = map[string]string{"BLOBS": "blobs"}
		c.Workers[0].Bindings.D1 = map[string]string{"DB": "big"}
	}})
	f.Provision()
	return f
}
