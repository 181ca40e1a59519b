package queuecentral

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
)

// Defaults of Options.
const (
	DefaultTimeout         = 10 * time.Second
	DefaultMaxRequestBytes = 4 << 20
	DefaultMaxClaimBytes   = 4 << 20
)

// Sentinel errors. Test with errors.Is.
var (
	// ErrClosed: the Broker is closed.
	ErrClosed = errors.New("queuecentral: broker closed")
	// ErrNoDatabase: the queue database (namespace) does not exist.
	ErrNoDatabase = errors.New("queuecentral: queue database does not exist")
	// ErrSchemaTooNew: the database was laid out by a newer dwk.
	ErrSchemaTooNew = errors.New("queuecentral: queue database schema is newer than this binary")
	// ErrOptions: options that make no sense.
	ErrOptions = errors.New("queuecentral: invalid options")
)

// Options tune a Broker. The zero value is the default.
type Options struct {
	// Timeout bounds every call whose context has no earlier deadline.
	// Default: 10s.
	Timeout time.Duration
	// MaxRequestBytes is the most message body bytes one Send puts in one
	// request; larger batches are sent in chunks within one transaction.
	// Keep it well under the server's request limit (dwk libsql
	// --max-body-size, 10 MiB by default), as bodies grow by a third in
	// base64. Default: 4 MiB.
	MaxRequestBytes int
	// MaxClaimBytes is the most body bytes one Claim returns (it returns
	// at least one message regardless), to stay under the server's
	// response limit. Default: 4 MiB.
	MaxClaimBytes int
	// Rand is the source of message ids and receipts. Default:
	// crypto/rand.
	Rand io.Reader
}

func (o Options) withDefaults() (Options, error) {
	if o.Timeout < 0 || o.MaxRequestBytes < 0 || o.MaxClaimBytes < 0 {
		return o, fmt.Errorf("%w: negative value in %+v", ErrOptions, o)
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxRequestBytes == 0 {
		o.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if o.MaxClaimBytes == 0 {
		o.MaxClaimBytes = DefaultMaxClaimBytes
	}
	if o.Rand == nil {
		o.Rand = rand.Reader
	}
	return o, nil
}

// Broker is the central queue broker on one libSQL database. It is safe
// for concurrent use, owns no goroutines, and any number of Brokers (one
// per replica) may share the database.
type Broker struct {
	c      *hranaclient.Client
	opts   Options
	closed atomic.Bool
}

var _ queue.Broker = (*Broker)(nil)

// Open creates the tables if needed (one round trip) and checks their
// layout version. c addresses the queue database, whose namespace must
// exist; it decides the URL, credentials and round-trip accounting.
func Open(ctx context.Context, c *hranaclient.Client, o Options) (*Broker, error) {
	if c == nil {
		return nil, errors.New("queuecentral: nil client")
	}
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	b := &Broker{c: c, opts: o}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	if err := b.ensureSchema(ctx); err != nil {
		return nil, fmt.Errorf("open queue broker on %q: %w", c.Namespace(), err)
	}
	return b, nil
}

// Close makes every later call fail with ErrClosed; calls in flight
// finish. The client is the caller's. Close is idempotent.
func (b *Broker) Close() error {
	b.closed.Store(true)
	return nil
}

// begin checks that the broker is open and bounds the call.
func (b *Broker) begin(ctx context.Context) (context.Context, context.CancelFunc, error) {
	if b.closed.Load() {
		return nil, nil, ErrClosed
	}
	ctx, cancel := context.WithTimeout(ctx, b.opts.Timeout)
	return ctx, cancel, nil
}

// Depth counts the messages stored on q: visible, delayed and claimed.
// One round trip.
func (b *Broker) Depth(ctx context.Context, q string) (int, error) {
	if err := queue.ValidateName(q); err != nil {
		return 0, err
	}
	ctx, cancel, err := b.begin(ctx)
	if err != nil {
		return 0, err
	}
	defer cancel()
	res, err := b.execute(ctx, fmt.Sprintf("depth of queue %q", q),
		hrana.NewStmt(`SELECT count(*) FROM queue_messages WHERE queue = ?`, hrana.Text(q)))
	if err != nil {
		return 0, err
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 1 || res.Rows[0][0].Kind != hrana.KindInteger {
		return 0, fmt.Errorf("depth of queue %q: unexpected result %v", q, res.Rows)
	}
	return int(res.Rows[0][0].Int), nil
}

// token returns n random bytes in hex, for message ids and receipts.
func (b *Broker) token(n int) (string, error) {
	buf := make([]byte, n)
	if _, err := io.ReadFull(b.opts.Rand, buf); err != nil {
		return "", fmt.Errorf("random token: %w", err)
	}
	return hex.EncodeToString(buf), nil
}
