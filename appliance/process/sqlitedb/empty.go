package sqlitedb

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// emptyWAL is the file SQLite leaves for an empty database switched to
// WAL mode (its first page), made once per process.
var emptyWAL struct {
	once sync.Once
	file []byte
	err  error
}

// makeEmptyWAL has SQLite make an empty database in WAL mode in a
// temporary directory and returns its file.
func makeEmptyWAL() ([]byte, error) {
	dir, err := os.MkdirTemp("", "dwk-sqlite-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "empty.db")
	db, err := Open(context.Background(), path, Options{Synchronous: "OFF"})
	if err != nil {
		return nil, err
	}
	if err := db.Close(); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) < 100 || b[18] != 2 || b[19] != 2 {
		return nil, fmt.Errorf("the empty database SQLite made is not in WAL mode (%d bytes)", len(b))
	}
	return b, nil
}

// CreateEmpty creates path, where no file may be, as an empty database in
// WAL mode: the bytes SQLite writes for one, made once per process, so
// that making many costs a file each rather than a connection, a rollback
// journal, a log and their removal. With sync, the file is fsynced (its
// directory is not).
func CreateEmpty(path string, sync bool) error {
	emptyWAL.once.Do(func() { emptyWAL.file, emptyWAL.err = makeEmptyWAL() })
	if emptyWAL.err != nil {
		return fmt.Errorf("make an empty database: %w", emptyWAL.err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("create empty database: %w", err)
	}
	_, err = f.Write(emptyWAL.file)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("create empty database %s: %w", path, err)
	}
	return nil
}
