// Package coordfleet reads the fleet — member records and leases — from the
// coordination KV for the Caddy modules, through a connection that is
// opened on first use, so that a libSQL server that is down when Caddy
// loads its config delays routing instead of failing the load.
//
// The records are decoded by the packages that write them
// (appliance/fleet/membership and appliance/fleet/lease), so the load balancer
// and the replicas cannot disagree on their format.
package coordfleet

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
)

// ErrClosed is returned by Store after Close.
var ErrClosed = errors.New("coordfleet: connection closed")

// Conn is a lazily opened coordination store. It is safe for concurrent
// use.
type Conn struct {
	client  *hranaclient.Client
	timeout time.Duration
	log     *slog.Logger

	mu     sync.Mutex
	store  *coord.Store
	closed bool
}

// NewConn returns a connection to the coordination database cfg addresses
// (cfg.Namespace selects it). timeout bounds every round trip. It does no
// I/O.
func NewConn(cfg hranaclient.Config, timeout time.Duration, log *slog.Logger) (*Conn, error) {
	cfg.Timeout = timeout
	c, err := hranaclient.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("coordination database client: %w", err)
	}
	if log == nil {
		log = slog.Default()
	}
	return &Conn{client: c, timeout: timeout, log: log}, nil
}

// Client is the Hrana client, for its round-trip counter.
func (c *Conn) Client() *hranaclient.Client { return c.client }

// Store returns the open store, opening it (one round trip) if this is the
// first successful call. The store runs no sweeper: the load balancer only
// reads.
func (c *Conn) Store(ctx context.Context) (*coord.Store, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, ErrClosed
	}
	if c.store != nil {
		return c.store, nil
	}
	st, err := coord.Open(ctx, c.client, coord.Options{Timeout: c.timeout, SweepInterval: -1, Logger: c.log})
	if err != nil {
		return nil, err
	}
	c.store = st
	return st, nil
}

// Close closes the store, if it was opened, at most until ctx ends. Later
// calls to Store fail with ErrClosed.
func (c *Conn) Close(ctx context.Context) error {
	c.mu.Lock()
	st := c.store
	c.closed, c.store = true, nil
	c.mu.Unlock()
	if st == nil {
		return nil
	}
	if err := st.Close(ctx); err != nil {
		return fmt.Errorf("close coordination connection: %w", err)
	}
	return nil
}
