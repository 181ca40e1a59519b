package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/process/datadir"
	"github.com/dwk/fleet/appliance/server/storeset"
)

// openLocalDir opens the stores of the local-mode data directory dir for
// a command of kind.
//
// The command takes the directory's lock when it is free, as dwk serve
// does, so no dwk serve starts on the directory halfway through it. When
// a dwk serve (or another command) holds the lock, D1 databases, KV
// namespaces and the queues are shared with it: they are SQLite files in
// WAL mode, which several processes may open, and a worker sees a change
// at its next read. R2 buckets are not: a bucket's directory belongs to
// one process (r2local cleans up files it does not know of when it
// opens), so an R2 command refuses while the lock is held.
func openLocalDir(ctx context.Context, dir, fleet string, kind storeKind, log *slog.Logger) (*storeset.Local, func() error, error) {
	d, err := datadir.Open(dir, config.ModeLocal, fleet)
	if err == nil {
		st, err := storeset.OpenLocal(ctx, d.Path, storeset.LocalOptions{Logger: log})
		if err != nil {
			d.Close()
			return nil, nil, err
		}
		return st, func() error { return errors.Join(st.Close(), d.Close()) }, nil
	}
	if !errors.Is(err, datadir.ErrLocked) {
		return nil, nil, err
	}
	if kind == kindR2 {
		return nil, nil, fmt.Errorf("%w; an R2 bucket of a data directory is used by one process at a time, so R2 commands refuse while another process holds the directory: stop it, or change the object through the worker", err)
	}
	abs, aerr := filepath.Abs(dir)
	if aerr != nil {
		return nil, nil, aerr
	}
	if err := checkMarker(abs, fleet); err != nil {
		return nil, nil, err
	}
	st, err := storeset.OpenLocal(ctx, abs, storeset.LocalOptions{Logger: log})
	if err != nil {
		return nil, nil, err
	}
	return st, st.Close, nil
}

// checkMarker checks, for a data directory another process holds, that
// it holds the local-mode data of fleet.
func checkMarker(dir, fleet string) error {
	p := filepath.Join(dir, datadir.MarkerFile)
	b, err := os.ReadFile(p)
	if err != nil {
		return fmt.Errorf("data directory %s: %w", dir, err)
	}
	var m datadir.Marker
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("%w: %s is not a dwk marker (%v)", datadir.ErrWrongMode, p, err)
	}
	switch {
	case m.Mode != config.ModeLocal:
		return fmt.Errorf("%w: %s says %s holds %s-mode data, not local data", datadir.ErrWrongMode, p, dir, m.Mode)
	case m.Fleet != fleet:
		return fmt.Errorf("%w: %s belongs to fleet %q, not %q; set fleet.name to %q or use another --data-dir", datadir.ErrWrongMode, p, m.Fleet, fleet, m.Fleet)
	}
	return nil
}
