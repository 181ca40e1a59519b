package objlocal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/worker"
)

// Store opens object databases under <data_dir>/objects.
type Store struct {
	dir string
}

var _ objects.ObjectStore = (*Store)(nil)

// NewStore returns a store for the data directory dataDir. It touches
// nothing until an object is opened.
func NewStore(dataDir string) *Store {
	return &Store{dir: filepath.Join(dataDir, "objects")}
}

// Path is the database file of object id.
func (s *Store) Path(id worker.ObjectID) string {
	return filepath.Join(s.dir, id.Namespace(), id.String()+".sqlite")
}

// Open implements objects.ObjectStore. The file is created on first use.
func (s *Store) Open(ctx context.Context, id worker.ObjectID, _ objects.Lease) (objects.ObjectDB, error) {
	ns := id.Namespace()
	if ns == "" || ns == "." || ns == ".." || filepath.Base(ns) != ns {
		return nil, fmt.Errorf("open object %s: unsafe namespace %q", id, ns)
	}
	if err := os.MkdirAll(filepath.Join(s.dir, ns), 0o755); err != nil {
		return nil, fmt.Errorf("open object %s: %w", id, err)
	}
	db := &DB{path: s.Path(id)}
	if _, err := db.handle(ctx); err != nil {
		return nil, err
	}
	return db, nil
}

// RemoveFiles deletes a SQLite database with its WAL and shared-memory
// files; missing files are not an error.
func RemoveFiles(path string) error {
	var errs []error
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// List returns every object with a database file, each with an empty
// name (files are named by id alone).
func (s *Store) List() ([]worker.ObjectID, error) {
	files, err := filepath.Glob(filepath.Join(s.dir, "*", "*.sqlite"))
	if err != nil {
		return nil, err
	}
	out := make([]worker.ObjectID, 0, len(files))
	for _, f := range files {
		id, err := worker.ParseObjectID(filepath.Base(filepath.Dir(f)), strings.TrimSuffix(filepath.Base(f), ".sqlite"))
		if err != nil {
			continue // not an object's file
		}
		out = append(out, id)
	}
	return out, nil
}
