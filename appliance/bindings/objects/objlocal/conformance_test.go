package objlocal_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
	"github.com/dwk/fleet/appliance/bindings/objects/objtest"
)

// openLocal opens a local-mode runtime over dataDir, as the server does.
func openLocal(t *testing.T, dataDir string, o objtest.Options) *objects.Runtime {
	t.Helper()
	ctx := context.Background()
	idx, err := objlocal.OpenAlarmIndex(ctx, filepath.Join(dataDir, "alarms.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	rt := objects.New(objects.Config{
		Secret:            []byte("conformance secret"),
		Store:             objlocal.NewStore(dataDir),
		Alarms:            idx,
		Env:               o.Env,
		Logger:            slog.New(slog.NewTextHandler(io.Discard, nil)),
		IdleTimeout:       o.IdleTimeout,
		AlarmPollInterval: o.AlarmPollInterval,
		AlarmRetryBase:    o.AlarmRetryBase,
	})
	if err := rt.Open(ctx); err != nil {
		t.Fatal(err)
	}
	// Cleanups run last-in first-out: the runtime (closed by the suite)
	// goes before its index.
	t.Cleanup(func() { idx.Close() })
	return rt
}

func TestConformance(t *testing.T) {
	objtest.Run(t, func(t *testing.T) objtest.Opener {
		dir := t.TempDir()
		return func(t *testing.T, o objtest.Options) objtest.Runtime {
			return openLocal(t, dir, o)
		}
	})
}
