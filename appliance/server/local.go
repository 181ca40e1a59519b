package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"

	"github.com/dwk/fleet/appliance/bindings/cron"
	"github.com/dwk/fleet/appliance/bindings/d1/d1local"
	"github.com/dwk/fleet/appliance/bindings/kv/kvlocal"
	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/bindings/queue/queuelocal"
	"github.com/dwk/fleet/appliance/bindings/r2/r2local"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/process/datadir"
	"github.com/dwk/fleet/appliance/process/metrics"
	"github.com/dwk/fleet/appliance/worker"
)

// localStores opens local-mode stores lazily under a locked data directory.
type localStores struct {
	ctx     context.Context
	dir     *datadir.Dir
	log     *slog.Logger
	broker  *queuelocal.Broker
	objects ObjectNamespaces

	mu      sync.Mutex
	d1      map[string]*d1local.DB
	r2      map[string]*r2local.Bucket
	kv      map[string]*kvlocal.Store
	closers []io.Closer
}

var _ stores = (*localStores)(nil)

func (s *localStores) D1(name string) (worker.D1Backend, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if db, ok := s.d1[name]; ok {
		return db, nil
	}
	dir, err := s.dir.Sub("d1")
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

func (s *localStores) R2(name string) (worker.R2Bucket, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.r2[name]; ok {
		return b, nil
	}
	dir, err := s.dir.Sub("r2", name)
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

func (s *localStores) KV(name string) (worker.KVNamespace, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if kv, ok := s.kv[name]; ok {
		return kv, nil
	}
	dir, err := s.dir.Sub("kv")
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

func (s *localStores) Broker() queue.Broker      { return s.broker }
func (s *localStores) Objects() ObjectNamespaces { return s.objects }

// openLocal locks the data directory and assembles the workers over
// local-mode stores.
func openLocal(ctx context.Context, cfg *config.Config, m *metrics.Metrics, log *slog.Logger) (a *app, err error) {
	dir, err := datadir.Open(cfg.Storage.DataDir, config.ModeLocal, cfg.Fleet.Name)
	if err != nil {
		return nil, err
	}
	st := &localStores{ctx: ctx, dir: dir, log: log, d1: map[string]*d1local.DB{}, r2: map[string]*r2local.Bucket{}, kv: map[string]*kvlocal.Store{}}
	defer func() {
		if err != nil {
			for i := len(st.closers) - 1; i >= 0; i-- {
				st.closers[i].Close()
			}
			dir.Close()
		}
	}()
	st.broker, err = queuelocal.Open(ctx, filepath.Join(dir.Path, "queues.sqlite"), queuelocal.Options{})
	if err != nil {
		return nil, fmt.Errorf("open queues: %w", err)
	}
	st.closers = append(st.closers, st.broker)
	secret, err := resolveSecret(cfg, dir)
	if err != nil {
		return nil, err
	}
	envs := map[string]*worker.Env{}
	rt, err := openLocalObjects(ctx, cfg, dir, secret, envs, log)
	if err != nil {
		return nil, err
	}
	st.objects = rt
	objectRuntimeMetrics(m, "", rt.Runtime)
	a, err = assemble(cfg, st, envs, m, cron.LocalClaimer{}, log)
	if err == nil {
		err = rt.start(ctx)
	}
	if err != nil {
		rt.Close(context.Background())
		return nil, err
	}
	a.objects = rt
	a.closers = append([]io.Closer{dir}, st.closers...)
	return a, nil
}

func resolveSecret(cfg *config.Config, dir *datadir.Dir) ([]byte, error) {
	if cfg.Fleet.Secret != nil {
		v, err := cfg.Fleet.Secret.Resolve()
		if err != nil {
			return nil, fmt.Errorf("fleet.secret: %w", err)
		}
		return []byte(v), nil
	}
	v, err := dir.Secret()
	return []byte(v), err
}
