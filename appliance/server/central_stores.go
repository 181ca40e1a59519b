package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/dwk/fleet/appliance/bindings/d1/d1central"
	"github.com/dwk/fleet/appliance/bindings/kv/kvcentral"
	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/bindings/r2/r2central"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/namespaces"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/appliance/process/metrics"
	"github.com/dwk/fleet/appliance/worker"
)

// centralStores opens central-mode stores lazily: D1 databases are libSQL
// namespaces (created on first use), R2 buckets are key prefixes "r2/<name>/"
// of the fleet's S3 bucket, KV namespaces live in the coordination KV.
type centralStores struct {
	cfg     *config.Config
	metrics *metrics.Metrics
	log     *slog.Logger
	token   string
	admin   *libsqladmin.Client
	coord   *coord.Store
	s3      *s3.Client
	s3cfg   r2central.Config
	broker  queue.Broker
	objects ObjectNamespaces

	mu      sync.Mutex
	d1      map[string]*d1central.DB
	r2      map[string]*r2central.Bucket
	kv      map[string]*kvcentral.Namespace
	closers []io.Closer
}

var _ stores = (*centralStores)(nil)

func (s *centralStores) D1(name string) (worker.D1Backend, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if db, ok := s.d1[name]; ok {
		return db, nil
	}
	db, err := d1central.Open(d1central.Config{
		URL:       s.cfg.Storage.LibSQL.URL,
		AuthToken: s.token,
		CAFile:    s.cfg.Storage.LibSQL.CAFile,
		Namespace: namespaces.D1(s.cfg.Fleet.Name, name),
		CreateNamespace: func(ctx context.Context, ns string) error {
			if s.admin == nil {
				return nil // no admin API: the database must exist (Turso, or provisioned by Terraform)
			}
			return s.admin.Create(ctx, ns)
		},
		OnRoundTrip: s.metrics.D1RoundTrips.Inc,
	})
	if err != nil {
		return nil, err
	}
	s.d1[name] = db
	s.closers = append(s.closers, db)
	return db, nil
}

func (s *centralStores) R2(name string) (worker.R2Bucket, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.r2[name]; ok {
		return b, nil
	}
	c := s.s3cfg
	c.KeyPrefix = "r2/" + name + "/"
	b, err := r2central.New(s.s3, c, r2central.Options{})
	if err != nil {
		return nil, fmt.Errorf("r2 bucket %s: %w", name, err)
	}
	s.r2[name] = b
	return b, nil
}

func (s *centralStores) KV(name string) (worker.KVNamespace, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if kv, ok := s.kv[name]; ok {
		return kv, nil
	}
	kv, err := kvcentral.New(s.coord, name, kvcentral.Options{})
	if err != nil {
		return nil, err
	}
	s.kv[name] = kv
	return kv, nil
}

func (s *centralStores) Broker() queue.Broker      { return s.broker }
func (s *centralStores) Objects() ObjectNamespaces { return s.objects }
