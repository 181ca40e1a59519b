// Package kvlocal is the local-mode backend of Workers KV: one SQLite file per
// KV namespace (data_dir/kv/<namespace>.db is the appliance's layout), holding
// a single table of keys.
//
// Keys are stored as BLOBs so that SQLite's memcmp ordering is byte order;
// expiry is a Unix-millisecond column. Expired keys are invisible to reads the
// moment they expire and are deleted by a sweeper goroutine the Store owns.
package kvlocal

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/process/sqlitedb"
	"github.com/dwk/fleet/appliance/worker"
)

// Options tune a Store. The zero value is the default.
type Options struct {
	// Now is the clock expiry is judged by. Default: time.Now.
	Now func() time.Time
	// SweepInterval is how often expired keys are deleted. Default: 1m.
	SweepInterval time.Duration
	// Logger receives sweep failures. Default: slog.Default().
	Logger *slog.Logger
}

// Store is one KV namespace on a SQLite file. It is safe for concurrent use,
// and several Stores (even in several processes) may open the same file.
type Store struct {
	db     *sql.DB
	path   string
	now    func() time.Time
	log    *slog.Logger
	every  time.Duration
	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once
	err    error
}

var _ worker.KVNamespace = (*Store)(nil)

const schema = `
CREATE TABLE IF NOT EXISTS kv (
	key        BLOB PRIMARY KEY,
	value      BLOB NOT NULL,
	metadata   BLOB,
	expires_at INTEGER
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS kv_expires ON kv(expires_at) WHERE expires_at IS NOT NULL;
`

// Open opens (creating if needed) the namespace file at path and starts its
// sweeper. The caller must Close the Store.
func Open(ctx context.Context, path string, o Options) (*Store, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.SweepInterval <= 0 {
		o.SweepInterval = time.Minute
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	db, err := sqlitedb.Open(ctx, path, sqlitedb.Options{})
	if err != nil {
		return nil, fmt.Errorf("open kv namespace: %w", err)
	}
	if _, err := db.ExecContext(ctx, schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("create kv schema in %s: %w", path, err)
	}
	sweepCtx, cancel := context.WithCancel(context.Background())
	s := &Store{
		db: db, path: path, now: o.Now, log: o.Logger, every: o.SweepInterval,
		cancel: cancel, done: make(chan struct{}),
	}
	go s.sweepLoop(sweepCtx)
	return s, nil
}

// Close stops the sweeper, waits for it, and closes the file. It is safe to
// call more than once; later calls return the first call's result.
func (s *Store) Close() error {
	s.once.Do(func() {
		s.cancel()
		<-s.done
		if err := s.db.Close(); err != nil {
			s.err = fmt.Errorf("close kv namespace %s: %w", s.path, err)
		}
	})
	return s.err
}

// nowMilli is the current time as stored in expires_at.
func (s *Store) nowMilli() int64 { return s.now().UnixMilli() }
