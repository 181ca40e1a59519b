package storeset

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/dwk/fleet/appliance/bindings/d1/d1local"
	"github.com/dwk/fleet/appliance/bindings/kv/kvlocal"
	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/bindings/queue/queuelocal"
	"github.com/dwk/fleet/appliance/bindings/r2/r2local"
	"github.com/dwk/fleet/appliance/worker"
)

// The layout of a local-mode data directory, below its root.
const (
	// QueuesFile holds every queue.
	QueuesFile = "queues.sqlite"
	// D1Dir holds one SQLite file per D1 database: <name>.sqlite.
	D1Dir = "d1"
	// KVDir holds one SQLite file per KV namespace: <name>.sqlite.
	KVDir = "kv"
	// R2Dir holds one directory per R2 bucket: <name>/.
	R2Dir = "r2"
)

// LocalOptions tune OpenLocal.
type LocalOptions struct {
	// Logger receives the KV sweepers' failures. Default: slog.Default().
	Logger *slog.Logger
}

// Local opens local-mode stores lazily under a data directory. Every
// store but R2 is SQLite, which several processes may share; an R2
// bucket's directory must be used by one process at a time (r2local), so
// whoever opens R2 buckets must hold the directory's lock
// (process/datadir).
type Local struct {
	ctx    context.Context
	dir    string
	log    *slog.Logger
	broker *queuelocal.Broker

	mu      sync.Mutex
	d1      map[string]*d1local.DB
	r2      map[string]*r2local.Bucket
	kv      map[string]*kvlocal.Store
	closers []io.Closer
}

// OpenLocal opens the queue broker of the data directory dir; the other
// stores open on first use. ctx bounds every store's opening. The caller
// closes the Local.
func OpenLocal(ctx context.Context, dir string, o LocalOptions) (*Local, error) {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	b, err := queuelocal.Open(ctx, filepath.Join(dir, QueuesFile), queuelocal.Options{})
	if err != nil {
		return nil, fmt.Errorf("open queues: %w", err)
	}
	return &Local{
		ctx: ctx, dir: dir, log: o.Logger, broker: b,
		d1: map[string]*d1local.DB{}, r2: map[string]*r2local.Bucket{}, kv: map[string]*kvlocal.Store{},
	}, nil
}

// sub returns the path of a subdirectory of the data directory, creating it.
func (s *Local) sub(elem ...string) (string, error) {
	p := filepath.Join(append([]string{s.dir}, elem...)...)
	if err := os.MkdirAll(p, 0o750); err != nil {
		return "", fmt.Errorf("data directory: %w", err)
	}
	return p, nil
}

// D1 opens the D1 database name.
func (s *Local) D1(name string) (worker.D1Backend, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if db, ok := s.d1[name]; ok {
		return db, nil
	}
	dir, err := s.sub(D1Dir)
	if err != nil {
		return nil, err
	}
	db, err := d1local.Open(s.ctx, filepath.Join(dir, name+".sqlite"))
	if err != nil {
		return nil, err
	}
	s.d1[name] = db
	s.closers = append(s.closers, db)
	return db, nil
}

// R2 opens the R2 bucket name.
func (s *Local) R2(name string) (worker.R2Bucket, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.r2[name]; ok {
		return b, nil
	}
	dir, err := s.sub(R2Dir, name)
	if err != nil {
		return nil, err
	}
	b, err := r2local.Open(dir, r2local.Options{})
	if err != nil {
		return nil, err
	}
	s.r2[name] = b
	s.closers = append(s.closers, b)
	return b, nil
}

// KV opens the KV namespace name.
func (s *Local) KV(name string) (worker.KVNamespace, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if kv, ok := s.kv[name]; ok {
		return kv, nil
	}
	dir, err := s.sub(KVDir)
	if err != nil {
		return nil, err
	}
	kv, err := kvlocal.Open(s.ctx, filepath.Join(dir, name+".sqlite"), kvlocal.Options{Logger: s.log})
	if err != nil {
		return nil, err
	}
	s.kv[name] = kv
	s.closers = append(s.closers, kv)
	return kv, nil
}

// Broker is the data directory's queue broker.
func (s *Local) Broker() queue.Broker { return s.broker }

// Close closes every store opened, the last opened first, and the queue
// broker last.
func (s *Local) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for i := len(s.closers) - 1; i >= 0; i-- {
		errs = append(errs, s.closers[i].Close())
	}
	s.closers = nil
	errs = append(errs, s.broker.Close())
	return errors.Join(errs...)
}
