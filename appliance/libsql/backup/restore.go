package backup

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/libsql/sqlite"
)

// Restored describes one restored namespace.
type Restored struct {
	Namespace  string
	Generation time.Time
	Segments   int
	// Through is the read time of the last segment applied (or the
	// generation's start): the namespace holds every commit made before
	// Through minus the lag, and none made after Through.
	Through time.Time
}

// restoreWorkers is how many namespaces are restored at once.
const restoreWorkers = 8

// Restore rebuilds the namespaces of the backup, as they were at time at
// (zero: the latest state), under dbs/ in dir, which must be empty or
// missing. Each namespace is built under a temporary name and renamed
// into place once SQLite's quick_check passes, so an interrupted restore
// leaves only directories the server removes.
func Restore(ctx context.Context, api S3API, cfg Config, dir string, at time.Time) ([]Restored, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if at.IsZero() {
		at = time.Unix(1<<40, 0)
	}
	s := newStore(api, cfg)
	_, dirs, err := s.list(ctx, "", "/")
	if err != nil {
		return nil, err
	}
	root := filepath.Join(dir, "dbs")
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, fmt.Errorf("create %s: %w", root, err)
	}
	var (
		mu   sync.Mutex
		out  []Restored
		errs []error
		wg   sync.WaitGroup
	)
	sem := make(chan struct{}, restoreWorkers)
	for _, d := range dirs {
		name := strings.TrimSuffix(d, "/")
		if name == "" || strings.HasPrefix(name, ".") || strings.ContainsAny(name, `/\`) {
			// Not a namespace the server wrote; never a path outside dir.
			continue
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			r, ok, err := restoreNamespace(ctx, s, root, name, at)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, fmt.Errorf("restore namespace %s: %w", name, err))
			} else if ok {
				out = append(out, r)
			}
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// restoreNamespace restores one namespace; ok is false when it did not
// exist at time at.
func restoreNamespace(ctx context.Context, s *store, root, name string, at time.Time) (Restored, bool, error) {
	h, err := s.readHistory(ctx, name)
	if err != nil {
		return Restored{}, false, err
	}
	g := h.at(at)
	if g == nil {
		return Restored{}, false, nil
	}
	res := Restored{Namespace: name, Generation: g.start, Through: g.start}
	var b [6]byte
	rand.Read(b[:])
	tmp := filepath.Join(root, "."+name+".new-"+hex.EncodeToString(b[:]))
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return res, false, err
	}
	defer os.RemoveAll(tmp)

	snap, err := s.get(ctx, name+"/"+g.name+"/"+snapshotName)
	if err != nil {
		return res, false, err
	}
	db, err := decodeObject(kindSnapshot, snap)
	if err != nil {
		return res, false, fmt.Errorf("snapshot of generation %s: %w", g.name, err)
	}
	path := filepath.Join(tmp, DataFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return res, false, err
	}
	defer f.Close()
	if _, err := f.Write(db); err != nil {
		return res, false, fmt.Errorf("write database: %w", err)
	}
	for _, seg := range g.segments {
		if seg.at.After(at) {
			break
		}
		raw, err := s.get(ctx, seg.key)
		if err != nil {
			return res, false, err
		}
		pageSize, frames, err := decodeSegment(raw)
		if err != nil {
			return res, false, fmt.Errorf("%s: %w", seg.key, err)
		}
		if err := applyFrames(f, pageSize, frames); err != nil {
			return res, false, fmt.Errorf("%s: %w", seg.key, err)
		}
		res.Segments++
		res.Through = seg.at
	}
	if err := f.Sync(); err != nil {
		return res, false, err
	}
	if err := f.Close(); err != nil {
		return res, false, err
	}
	cfg := []byte("{}")
	if raw, err := s.get(ctx, name+"/"+g.name+"/"+configName); err == nil {
		if cfg, err = decodeObject(kindConfig, raw); err != nil {
			return res, false, fmt.Errorf("config of generation %s: %w", g.name, err)
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, "config.json"), cfg, 0o600); err != nil {
		return res, false, err
	}
	if len(db) > 0 || res.Segments > 0 {
		if err := quickCheck(path); err != nil {
			return res, false, err
		}
	}
	if err := os.Rename(tmp, filepath.Join(root, name)); err != nil {
		return res, false, err
	}
	return res, true, nil
}

// quickCheck runs SQLite's quick_check on the restored file.
func quickCheck(path string) error {
	c, err := sqlite.Open(path)
	if err != nil {
		return err
	}
	defer c.Close()
	st, _, err := c.Prepare("PRAGMA quick_check")
	if err != nil {
		return fmt.Errorf("quick_check: %w", err)
	}
	defer st.Finalize()
	row, err := st.Step()
	if err != nil {
		return fmt.Errorf("quick_check: %w", err)
	}
	if !row || st.ColumnText(0) != "ok" {
		return fmt.Errorf("quick_check of the restored database failed: %s", st.ColumnText(0))
	}
	return nil
}

// HasBackup reports whether the bucket prefix holds any namespace.
func HasBackup(ctx context.Context, api S3API, cfg Config) (bool, error) {
	_, dirs, err := newStore(api, cfg).list(ctx, "", "/")
	return len(dirs) > 0, err
}
