// Package datadir guards a local-mode data directory: one dwk serve at a
// time (an exclusive lock file), and a marker that says the directory holds
// local-mode data, so it is never mistaken for anything else.
package datadir

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/dwk/fleet/appliance/process/buildinfo"
)

// File names inside a data directory.
const (
	LockFile   = "dwk.lock"
	MarkerFile = "dwk-mode.json"
	SecretFile = "fleet-secret"
)

// Errors a caller may branch on.
var (
	ErrLocked      = errors.New("data directory is in use")
	ErrWrongMode   = errors.New("data directory belongs to another mode or fleet")
	ErrSchemaNewer = errors.New("data directory was written by a newer dwk")
)

// Marker is the content of MarkerFile.
type Marker struct {
	Mode    string    `json:"mode"`
	Fleet   string    `json:"fleet"`
	Schema  int       `json:"schema"`
	Created time.Time `json:"created"`
}

// Dir is a locked data directory. Close releases the lock.
type Dir struct {
	Path   string
	Marker Marker
	lock   *os.File
}

// Open creates dir if needed, takes its lock, and checks or writes the
// marker for mode ("local" or "central") and fleet. Central replicas keep
// no authoritative data here, but they lock and mark the directory too, so a
// local data directory is never handed to a central replica by mistake. It fails with ErrLocked when another process
// holds the lock, and ErrWrongMode or ErrSchemaNewer when the marker does
// not fit.
func Open(dir, mode, fleet string) (*Dir, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("data directory %s: %w", dir, err)
	}
	if err := os.MkdirAll(abs, 0o750); err != nil {
		return nil, fmt.Errorf("data directory %s: %w", abs, err)
	}
	lockPath := filepath.Join(abs, LockFile)
	f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("data directory %s: %w", abs, err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		holder := readPID(f)
		f.Close()
		return nil, fmt.Errorf("%w: %s is locked by another dwk serve%s (lock file %s); stop that process or set storage.data_dir to another directory", ErrLocked, abs, holder, lockPath)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	d := &Dir{Path: abs, lock: f}
	if err := d.checkMarker(mode, fleet); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

func readPID(f *os.File) string {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	pid := strings.TrimSpace(string(b[:n]))
	if pid == "" {
		return ""
	}
	return " (pid " + pid + ")"
}

func (d *Dir) checkMarker(mode, fleet string) error {
	p := filepath.Join(d.Path, MarkerFile)
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		d.Marker = Marker{Mode: mode, Fleet: fleet, Schema: buildinfo.SchemaVersion, Created: time.Now().UTC()}
		out, _ := json.MarshalIndent(d.Marker, "", "  ")
		return writeFileAtomic(p, append(out, '\n'), 0o640)
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", p, err)
	}
	if err := json.Unmarshal(b, &d.Marker); err != nil {
		return fmt.Errorf("%w: %s is not a dwk marker (%v); this directory is not a dwk data directory", ErrWrongMode, p, err)
	}
	m := d.Marker
	switch {
	case m.Mode != mode:
		return fmt.Errorf("%w: %s says this directory holds %s-mode data, and this replica runs %s mode; local and central data are never mixed: give it an empty storage.data_dir", ErrWrongMode, p, m.Mode, mode)
	case m.Fleet != fleet:
		return fmt.Errorf("%w: %s belongs to fleet %q, not %q; set fleet.name to %q or use another storage.data_dir", ErrWrongMode, p, m.Fleet, fleet, m.Fleet)
	case m.Schema > buildinfo.SchemaVersion:
		return fmt.Errorf("%w: %s has schema %d, this dwk understands up to %d; upgrade dwk", ErrSchemaNewer, p, m.Schema, buildinfo.SchemaVersion)
	}
	return nil
}

// Secret returns the fleet secret kept in the directory, creating a random
// one on first use. Local mode uses it when the config names none.
func (d *Dir) Secret() (string, error) {
	p := filepath.Join(d.Path, SecretFile)
	b, err := os.ReadFile(p)
	if err == nil && len(strings.TrimSpace(string(b))) > 0 {
		return strings.TrimSpace(string(b)), nil
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("read fleet secret: %w", err)
	}
	raw := make([]byte, 32)
	rand.Read(raw)
	s := hex.EncodeToString(raw)
	if err := writeFileAtomic(p, []byte(s+"\n"), 0o600); err != nil {
		return "", err
	}
	return s, nil
}

// Sub returns the path of a subdirectory, creating it.
func (d *Dir) Sub(elem ...string) (string, error) {
	p := filepath.Join(append([]string{d.Path}, elem...)...)
	if err := os.MkdirAll(p, 0o750); err != nil {
		return "", fmt.Errorf("data directory: %w", err)
	}
	return p, nil
}

// Close releases the lock.
func (d *Dir) Close() error {
	if d.lock == nil {
		return nil
	}
	err := d.lock.Close()
	d.lock = nil
	return err
}

func writeFileAtomic(p string, b []byte, mode os.FileMode) error {
	tmp := p + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", p, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", p, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	if err := os.Rename(tmp, p); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}

// KeptSecret returns the fleet secret kept in the directory, and false
// when it keeps none (it then creates none).
func (d *Dir) KeptSecret() (string, bool, error) {
	b, err := os.ReadFile(filepath.Join(d.Path, SecretFile))
	if errors.Is(err, os.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read fleet secret: %w", err)
	}
	s := strings.TrimSpace(string(b))
	return s, s != "", nil
}

// KeepSecret makes s the secret the directory keeps, for local mode to
// use when its config names none.
func (d *Dir) KeepSecret(s string) error {
	return writeFileAtomic(filepath.Join(d.Path, SecretFile), []byte(s+"\n"), 0o600)
}
