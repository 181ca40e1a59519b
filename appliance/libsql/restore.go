package libsql

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/dwk/fleet/appliance/libsql/backup"
)

// ErrDataDirNotEmpty is returned by Restore for a data dir that holds
// files, unless forced.
var ErrDataDirNotEmpty = errors.New("data dir is not empty")

// Restore rebuilds the data dir dir from the backup cfg describes, as of
// at (zero: the latest). dir must be empty or missing, unless force, which
// deletes its contents first; either way it is locked as a server locks
// it, so a restore never runs under a live server.
func Restore(ctx context.Context, cfg backup.Config, dir string, at time.Time, force bool) ([]backup.Restored, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	var other []string
	for _, e := range entries {
		if e.Name() != lockFileName {
			other = append(other, e.Name())
		}
	}
	if len(other) > 0 && !force {
		return nil, fmt.Errorf("%w: %s holds %d entries (such as %s); restore into an empty dir, or pass --force to delete its contents first",
			ErrDataDirNotEmpty, dir, len(other), other[0])
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	defer lock.Close()
	for _, name := range other {
		if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
			return nil, fmt.Errorf("clear %s: %w", dir, err)
		}
	}
	client, err := backup.NewClient(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return backup.Restore(ctx, client, cfg, dir, at)
}
