package migrate

import (
	"context"
	"testing"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/process/datadir"
	"github.com/dwk/fleet/appliance/server/storeset"
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
