package objcentral

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
	"github.com/dwk/fleet/appliance/process/sqlitedb"
)

// copyOptions opens every local copy: no fsync (a copy not closed cleanly
// is rebuilt from the primary, see copyMeta), and no automatic
// checkpoint, since commits read the pages they send from the log.
var copyOptions = sqlitedb.Options{Synchronous: "OFF", ManualCheckpoints: true}

// spareCopies is how many empty local copies a cache keeps made ahead of
// time: an object's first holder renames one into place instead of
// creating a database file and switching it to WAL while its first
// request waits.
const spareCopies = 16

// spareMakeTimeout bounds the making of one spare copy.
const spareMakeTimeout = 10 * time.Second

// spares is a directory of empty local copies, each what opening a new
// file with copyOptions and closing it leaves: one file, in WAL mode.
// They are made in the background once the first is asked for, and not
// kept across processes.
type spares struct {
	dir string

	mu      sync.Mutex
	ready   []string
	made    int
	filling bool
	closed  bool
	wg      sync.WaitGroup
}

// newSpares empties dir, which only spares use; the first place starts
// filling it.
func newSpares(dir string) (*spares, error) {
	if err := os.RemoveAll(dir); err != nil {
		return nil, fmt.Errorf("object cache: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("object cache: %w", err)
	}
	return &spares{dir: dir}, nil
}

// place moves a spare copy to path, where no file may be, and reports
// whether there was one; it starts making more.
func (s *spares) place(path string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.fillLocked()
	if len(s.ready) == 0 {
		return false, nil
	}
	spare := s.ready[len(s.ready)-1]
	s.ready = s.ready[:len(s.ready)-1]
	if err := os.Rename(spare, path); err != nil {
		os.Remove(spare)
		return false, fmt.Errorf("object cache: place a spare copy: %w", err)
	}
	return true, nil
}

// fillLocked starts making spares up to spareCopies, unless that is under
// way or the cache is closing.
func (s *spares) fillLocked() {
	if s.filling || s.closed || len(s.ready) >= spareCopies {
		return
	}
	s.filling = true
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			s.mu.Lock()
			if s.closed || len(s.ready) >= spareCopies {
				s.filling = false
				s.mu.Unlock()
				return
			}
			s.made++
			path := filepath.Join(s.dir, fmt.Sprintf("%d.db", s.made))
			s.mu.Unlock()
			err := makeSpare(path)
			s.mu.Lock()
			if err != nil {
				// The next place tries again; until then copies are made
				// where they are needed.
				s.filling = false
				s.mu.Unlock()
				return
			}
			s.ready = append(s.ready, path)
			s.mu.Unlock()
		}
	}()
}

// makeSpare makes one empty copy at path.
func makeSpare(path string) error {
	ctx, cancel := context.WithTimeout(context.Background(), spareMakeTimeout)
	defer cancel()
	db, err := objlocal.OpenFile(ctx, path, copyOptions)
	if err != nil {
		objlocal.RemoveFiles(path)
		return err
	}
	if err := db.Close(); err != nil {
		objlocal.RemoveFiles(path)
		return err
	}
	// The last connection's close removed the log and shared memory of
	// the empty database; make sure nothing of them is left to pair with
	// a different database file under the copy's name.
	for _, p := range []string{path + "-wal", path + "-shm"} {
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			objlocal.RemoveFiles(path)
			return err
		}
	}
	return nil
}

// close stops the filling and waits for it.
func (s *spares) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.wg.Wait()
}
