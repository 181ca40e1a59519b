package dwkstorage

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/caddyserver/certmagic"

	"github.com/dwk/fleet/appliance/fleet/coord"
)

// Defaults and limits of Options.
const (
	DefaultPrefix  = "default"
	DefaultLockTTL = 30 * time.Second
	// MinLockTTL is the shortest LockTTL: a renewal every LockTTL/3 must
	// fit in a round trip.
	MinLockTTL = time.Second
	// MaxValueSize is the largest value Store accepts. Certificates, keys
	// and ACME accounts are a few KiB; the bound keeps a sealed value,
	// base64-encoded, far below the libSQL server's request limit.
	MaxValueSize = 1 << 20
)

// Source hands the storage its coordination store, opening it on first
// use; a failure is returned to the storage call that needed it. It must
// be safe for concurrent use.
type Source interface {
	Store(ctx context.Context) (*coord.Store, error)
}

// Options configure a KV. Secret is required.
type Options struct {
	// Secret is the fleet secret the encryption key is derived from.
	Secret []byte
	// Prefix separates storages that share a coordination database.
	// Default: DefaultPrefix.
	Prefix string
	// LockTTL is how long a lock outlives its holder's last renewal.
	// Default: DefaultLockTTL; at least MinLockTTL.
	LockTTL time.Duration
	// LockWait bounds how long Lock waits for a lock another owner holds.
	// Default: 0, as long as the caller's context allows (certmagic does
	// not retry an obtain whose lock wait failed).
	LockWait time.Duration
	// Owner names this storage in lock records. Default: the host name,
	// the process id and a random suffix, unique per KV.
	Owner string
	// Logger receives lock renewal failures, which have no caller, and
	// warnings about values sealed under another secret.
	// Default: slog.Default().
	Logger *slog.Logger
}

// KV is a certmagic.Storage in the coordination KV. It is safe for
// concurrent use. It owns one renewal goroutine per held lock; Close stops
// them.
type KV struct {
	src     Source
	keys    keyspace
	seal    *sealer
	ttl     time.Duration
	wait    time.Duration
	owner   string
	log     *slog.Logger
	closing context.Context // cancelled by Close
	close   context.CancelFunc

	mu     sync.Mutex
	held   map[string]*heldLock
	closed bool
	wg     sync.WaitGroup
}

var (
	_ certmagic.Storage          = (*KV)(nil)
	_ certmagic.TryLocker        = (*KV)(nil)
	_ certmagic.LockLeaseRenewer = (*KV)(nil)
)

// New returns a storage over src. It does no I/O.
func New(src Source, o Options) (*KV, error) {
	if src == nil {
		return nil, fmt.Errorf("%w: no coordination store", ErrConfig)
	}
	if o.Prefix == "" {
		o.Prefix = DefaultPrefix
	}
	if o.LockTTL == 0 {
		o.LockTTL = DefaultLockTTL
	}
	if o.LockTTL < MinLockTTL {
		return nil, fmt.Errorf("%w: lock TTL %s is shorter than %s", ErrConfig, o.LockTTL, MinLockTTL)
	}
	if o.LockWait < 0 {
		return nil, fmt.Errorf("%w: lock wait %s is negative", ErrConfig, o.LockWait)
	}
	if o.Owner == "" {
		o.Owner = defaultOwner()
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	s, err := newSealer(o.Secret)
	if err != nil {
		return nil, err
	}
	k := &KV{
		src: src, keys: keyspace{prefix: o.Prefix}, seal: s,
		ttl: o.LockTTL, wait: o.LockWait, owner: o.Owner, log: o.Logger,
		held: map[string]*heldLock{},
	}
	k.closing, k.close = context.WithCancel(context.Background())
	return k, nil
}

// defaultOwner is host/pid/random.
func defaultOwner() string {
	host, _ := os.Hostname() // a name for people reading lock records; any is fine
	var b [6]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read does not fail
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// String names the storage in certmagic's and Caddy's logs.
func (k *KV) String() string { return "dwk storage " + k.keys.prefix }

// store returns the coordination store, or ErrClosed.
func (k *KV) store(ctx context.Context) (*coord.Store, error) {
	if k.closing.Err() != nil {
		return nil, ErrClosed
	}
	return k.src.Store(ctx)
}

// Close stops waiting Locks (they fail with ErrClosed), stops renewing
// and releases every held lock, at most until ctx ends; a lock it could
// not release expires after LockTTL. Close does not close the Source.
// Close is idempotent.
func (k *KV) Close(ctx context.Context) error {
	k.mu.Lock()
	k.closed = true
	held := k.held
	k.held = map[string]*heldLock{}
	k.mu.Unlock()
	k.close()
	var errs []error
	for name, h := range held {
		if err := k.release(ctx, name, h); err != nil && !errors.Is(err, ErrLockLost) {
			errs = append(errs, err)
		}
	}
	done := make(chan struct{})
	go func() {
		k.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		errs = append(errs, fmt.Errorf("close dwk storage: lock renewals still running: %w", ctx.Err()))
	}
	return errors.Join(errs...)
}
