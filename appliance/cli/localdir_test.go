package cli

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/process/datadir"
)

// TestOpenLocalDirShared: while another process (here, another open
// Dir) holds a data directory's lock, D1, KV and queues open on its
// files and R2 is refused; a directory of another fleet is refused.
func TestOpenLocalDirShared(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	held, err := datadir.Open(dir, config.ModeLocal, "local")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	tests := []struct {
		kind  storeKind
		fleet string
		err   string
	}{
		{kindD1, "local", ""},
		{kindKV, "local", ""},
		{kindQueues, "local", ""},
		{kindR2, "local", "one process at a time"},
		{kindD1, "other", `belongs to fleet "local"`},
	}
	for _, tt := range tests {
		st, closeDir, err := openLocalDir(ctx, dir, tt.fleet, tt.kind, log)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("openLocalDir(kind %d, fleet %s) error = %v, want one with %q", tt.kind, tt.fleet, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("openLocalDir(kind %d) while locked: %v", tt.kind, err)
			continue
		}
		if _, err := st.D1("db"); err != nil {
			t.Errorf("D1 on a shared directory: %v", err)
		}
		if err := closeDir(); err != nil {
			t.Errorf("close: %v", err)
		}
	}
	held.Close()
	st, closeDir, err := openLocalDir(ctx, dir, "local", kindR2, log)
	if err != nil {
		t.Fatalf("openLocalDir(R2) on a free directory: %v", err)
	}
	if _, err := datadir.Open(dir, config.ModeLocal, "local"); !errors.Is(err, datadir.ErrLocked) {
		t.Errorf("datadir.Open while a command holds the directory = %v, want ErrLocked", err)
	}
	if _, err := st.R2("files"); err != nil {
		t.Errorf("R2 on a held directory: %v", err)
	}
	if err := closeDir(); err != nil {
		t.Errorf("close: %v", err)
	}
}
