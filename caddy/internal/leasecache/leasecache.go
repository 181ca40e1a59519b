// Package leasecache answers "which member holds this object's lease?" for
// the load balancer from memory, so that routing an object request to its
// holder costs no round trip to the coordination KV on the hot path.
//
// Answers younger than TTL are served as they are. Older ones, up to
// MaxStale, are still served while a background goroutine re-reads them —
// batched, up to 1000 leases per round trip. A key seen for the first time
// (or not used for MaxStale) is read synchronously, at most one round trip
// per key at a time, shared by the keys that miss at the same moment (up
// to MaxBatch), bounded by Timeout; when that read fails the caller
// gets "unknown" and routes by placement instead. Absent leases are cached
// like held ones.
//
// A stale answer only costs an extra hop: the replica that receives an
// object request it does not hold forwards it to the holder.
package leasecache

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/appliance/process/batch"
)

// Defaults of Options.
const (
	DefaultTTL        = time.Second
	DefaultMaxStale   = 10 * time.Second
	DefaultTimeout    = 250 * time.Millisecond
	DefaultMaxEntries = 100_000
	// MaxBatch is the most leases one background refresh reads.
	MaxBatch = 1000
)

// Key identifies an object's lease.
type Key struct {
	// Namespace is the object class.
	Namespace string
	// ID is the object id.
	ID objectid.ID
}

// Lookup reads lease holders from the coordination KV.
type Lookup interface {
	// Holders returns, for each key in order, the id of the member holding
	// its lease, or "" when none does (no record, or it expired). At most
	// MaxBatch keys; one round trip.
	Holders(ctx context.Context, keys []Key) ([]string, error)
}

// Options tune a Cache. The zero value is the default.
type Options struct {
	// TTL is how long an answer is served without being re-read.
	// Default: 1s.
	TTL time.Duration
	// MaxStale is how long an answer may be served while it is re-read in
	// the background; older entries are read again synchronously and
	// entries not used for this long are dropped. Default: 10s.
	MaxStale time.Duration
	// Timeout bounds a synchronous read and each background batch.
	// Default: 250ms.
	Timeout time.Duration
	// MaxEntries bounds the cache; beyond it new keys are answered but not
	// kept. Default: 100000.
	MaxEntries int
	// Now is the clock. Default: time.Now.
	Now func() time.Time
	// Logger receives failed background refreshes. Default: slog.Default().
	Logger *slog.Logger
}

// Errors.
var (
	// ErrOptions reports options that make no sense.
	ErrOptions = errors.New("leasecache: invalid options")
	// errWrongCount: a Lookup broke its contract.
	errWrongCount = errors.New("leasecache: lookup returned the wrong number of answers")
)

func (o Options) withDefaults() (Options, error) {
	if o.TTL < 0 || o.MaxStale < 0 || o.Timeout < 0 || o.MaxEntries < 0 {
		return o, fmt.Errorf("%w: negative value in %+v", ErrOptions, o)
	}
	if o.TTL == 0 {
		o.TTL = DefaultTTL
	}
	if o.MaxStale == 0 {
		o.MaxStale = max(DefaultMaxStale, o.TTL)
	}
	if o.MaxStale < o.TTL {
		return o, fmt.Errorf("%w: max stale %s is shorter than the ttl %s", ErrOptions, o.MaxStale, o.TTL)
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxEntries == 0 {
		o.MaxEntries = DefaultMaxEntries
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o, nil
}

// Cache is a lease-holder cache over a Lookup. It is safe for concurrent
// use. Lifecycle: New (no goroutines) → Start → Close. Without Start it
// answers too, but re-reads every stale answer synchronously.
type Cache struct {
	lookup Lookup
	o      Options

	mu       sync.Mutex
	entries  map[Key]*entry
	inflight map[Key]*call
	started  bool
	closed   bool

	firsts  *batch.Group[Key, string] // synchronous reads, batched
	queue   chan Key                  // keys to re-read in the background
	failing int                       // background refreshes failed in a row; loop only
	stop    chan struct{}
	done    chan struct{}
}

type entry struct {
	holder  string
	fetched time.Time // when the answer was read
	used    time.Time // when it was last served
	queued  bool      // waiting in queue for a background re-read
}

// call is one synchronous read in flight, shared by concurrent misses.
type call struct {
	done   chan struct{}
	holder string
	err    error
}

// New returns a cache over l.
func New(l Lookup, o Options) (*Cache, error) {
	if l == nil {
		return nil, fmt.Errorf("%w: nil lookup", ErrOptions)
	}
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	c := &Cache{
		lookup:   l,
		o:        o,
		entries:  make(map[Key]*entry),
		inflight: make(map[Key]*call),
		queue:    make(chan Key, 4*MaxBatch),
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	c.firsts = batch.New(MaxBatch, c.readMany)
	return c, nil
}

// Len is the number of cached answers.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// Holder returns the member holding k's lease ("" for none); ok is false
// when the answer is unknown. See the package doc for when it reads.
func (c *Cache) Holder(ctx context.Context, k Key) (holder string, ok bool) {
	now := c.o.Now()
	c.mu.Lock()
	if e := c.entries[k]; e != nil {
		age := now.Sub(e.fetched)
		if age < c.o.TTL || (age < c.o.MaxStale && c.started && !c.closed) {
			e.used, holder = now, e.holder
			if age >= c.o.TTL && !e.queued {
				select {
				case c.queue <- k:
					e.queued = true
				default: // queue full: a later request queues it
				}
			}
			c.mu.Unlock()
			return holder, true
		}
	}
	cl, leader := c.inflight[k], false
	if cl == nil {
		cl, leader = &call{done: make(chan struct{})}, true
		c.inflight[k] = cl
	}
	c.mu.Unlock()

	if leader {
		// On its own goroutine: the round trip's deep stack would
		// otherwise stay with the request's goroutine, which a handler
		// that keeps it (a WebSocket served in process) holds on to.
		go c.read(ctx, k, cl)
	}
	wait, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	select {
	case <-cl.done:
		return cl.holder, cl.err == nil
	case <-wait.Done():
		return "", false
	}
}

// read performs the synchronous read of k for every waiter on cl. The
// reads of keys that miss at the same moment share one round trip: those
// that arrive while one is in flight go together in the next.
func (c *Cache) read(ctx context.Context, k Key, cl *call) {
	ctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	holder, err := c.firsts.Do(ctx, k)
	cancel()
	now := c.o.Now()
	c.mu.Lock()
	delete(c.inflight, k)
	if err == nil {
		cl.holder = holder
		c.storeLocked(k, holder, now)
	}
	c.mu.Unlock()
	cl.err = err
	close(cl.done)
}

// readMany reads a batch of synchronous reads in one round trip.
func (c *Cache) readMany(ctx context.Context, keys []Key) ([]string, []error) {
	errs := make([]error, len(keys))
	hs, err := c.lookup.Holders(ctx, keys)
	if err == nil && len(hs) != len(keys) {
		err = fmt.Errorf("%w: %d for %d keys", errWrongCount, len(hs), len(keys))
	}
	if err != nil {
		for i := range errs {
			errs[i] = err
		}
		return make([]string, len(keys)), errs
	}
	return hs, errs
}

// Put records holder ("" for none) as k's answer, read now elsewhere
// (e.g. by a forward that saw the lease lapse), so that the next request
// is routed by it.
func (c *Cache) Put(k Key, holder string) {
	now := c.o.Now()
	c.mu.Lock()
	c.storeLocked(k, holder, now)
	c.mu.Unlock()
}

// storeLocked records an answer read at now.
func (c *Cache) storeLocked(k Key, holder string, now time.Time) {
	e := c.entries[k]
	if e == nil {
		if len(c.entries) >= c.o.MaxEntries {
			return
		}
		e = &entry{}
		c.entries[k] = e
	}
	// A synchronous read is made for a request: it counts as a use.
	e.holder, e.fetched, e.used, e.queued = holder, now, now, false
}

// Start starts the background refresher. Calling it twice, or after
// Close, does nothing.
func (c *Cache) Start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.started || c.closed {
		return
	}
	c.started = true
	go c.loop()
}

// Close stops the background refresher and waits for it, at most until
// ctx ends. Holder keeps answering afterwards, synchronously. Close is
// idempotent.
func (c *Cache) Close(ctx context.Context) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	started := c.started
	c.mu.Unlock()
	close(c.stop)
	if !started {
		return nil
	}
	select {
	case <-c.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("close lease cache: refresh in flight: %w", ctx.Err())
	}
}
