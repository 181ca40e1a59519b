package storeset

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/dwk/fleet/appliance/bindings/d1/d1central"
	"github.com/dwk/fleet/appliance/bindings/kv/kvcentral"
	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/bindings/queue/queuecentral"
	"github.com/dwk/fleet/appliance/bindings/r2/r2central"
	"github.com/dwk/fleet/appliance/central"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/namespaces"
	"github.com/dwk/fleet/appliance/worker"
)

// CentralConfig is what Central opens a fleet's stores with.
type CentralConfig struct {
	// Config is the fleet's dwk.json, defaulted and validated.
	Config *config.Config
	// Clients are the clients of its stores (central.Dial).
	Clients *central.Clients
	// Coord is the coordination store KV namespaces live in; nil when
	// the caller needs no KV (KV then fails).
	Coord *coord.Store
	// Broker is the fleet's queue broker (OpenQueues); nil when the
	// caller needs none.
	Broker queue.Broker
	// OnD1RoundTrip is called for every HTTP request of a D1 database;
	// it must be fast and safe for concurrent use. Default: none.
	OnD1RoundTrip func()
}

// Central opens central-mode stores lazily: D1 databases are libSQL
// namespaces (created on first use when the fleet has an admin API), R2
// buckets are the key prefixes "r2/<name>/" of the fleet's S3 bucket, KV
// namespaces live in the coordination store.
type Central struct {
	c CentralConfig

	mu      sync.Mutex
	d1      map[string]*d1central.DB
	r2      map[string]*r2central.Bucket
	kv      map[string]*kvcentral.Namespace
	closers []io.Closer
}

// NewCentral returns the stores of c's fleet. It opens nothing.
func NewCentral(c CentralConfig) *Central {
	return &Central{c: c, d1: map[string]*d1central.DB{}, r2: map[string]*r2central.Bucket{}, kv: map[string]*kvcentral.Namespace{}}
}

// OpenQueues opens the fleet's queue database, creating it first when the
// fleet has an admin API. The caller closes the broker.
func OpenQueues(ctx context.Context, clients *central.Clients) (*queuecentral.Broker, error) {
	ns := namespaces.Queues(clients.Fleet)
	if clients.Admin != nil {
		if err := clients.Admin.Create(ctx, ns); err != nil {
			return nil, fmt.Errorf("create queue database %s: %w", ns, err)
		}
	}
	b, err := queuecentral.Open(ctx, clients.Coord.WithNamespace(ns), queuecentral.Options{})
	if err != nil {
		return nil, fmt.Errorf("open queues: %w", err)
	}
	return b, nil
}

// D1 opens the D1 database name.
func (s *Central) D1(name string) (worker.D1Backend, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if db, ok := s.d1[name]; ok {
		return db, nil
	}
	cl := s.c.Clients
	ls := s.c.Config.Storage.LibSQL
	db, err := d1central.Open(d1central.Config{
		URL:       ls.URL,
		AuthToken: cl.AuthToken,
		CAFile:    ls.CAFile,
		Namespace: namespaces.D1(s.c.Config.Fleet.Name, name),
		CreateNamespace: func(ctx context.Context, ns string) error {
			if cl.Admin == nil {
				return nil // no admin API: the database must exist (Turso, or provisioned by Terraform)
			}
			return cl.Admin.Create(ctx, ns)
		},
		OnRoundTrip: s.c.OnD1RoundTrip,
	})
	if err != nil {
		return nil, err
	}
	s.d1[name] = db
	s.closers = append(s.closers, db)
	return db, nil
}

// R2 opens the R2 bucket name.
func (s *Central) R2(name string) (worker.R2Bucket, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.r2[name]; ok {
		return b, nil
	}
	c := s.c.Clients.S3Config
	c.KeyPrefix = "r2/" + name + "/"
	b, err := r2central.New(s.c.Clients.S3, c, r2central.Options{})
	if err != nil {
		return nil, fmt.Errorf("r2 bucket %s: %w", name, err)
	}
	s.r2[name] = b
	return b, nil
}

// KV opens the KV namespace name.
func (s *Central) KV(name string) (worker.KVNamespace, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if kv, ok := s.kv[name]; ok {
		return kv, nil
	}
	if s.c.Coord == nil {
		return nil, fmt.Errorf("kv namespace %s: no coordination store to keep it in", name)
	}
	kv, err := kvcentral.New(s.c.Coord, name, kvcentral.Options{})
	if err != nil {
		return nil, err
	}
	s.kv[name] = kv
	return kv, nil
}

// Broker is the fleet's queue broker (CentralConfig.Broker).
func (s *Central) Broker() queue.Broker { return s.c.Broker }

// Close closes the D1 databases opened, the last opened first. The
// coordination store, the broker and the clients are the caller's.
func (s *Central) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for i := len(s.closers) - 1; i >= 0; i-- {
		errs = append(errs, s.closers[i].Close())
	}
	s.closers = nil
	return errors.Join(errs...)
}
