package r2central

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dwk/fleet/appliance/bindings/r2"
	"github.com/dwk/fleet/appliance/worker"
)

// Bucket is an R2 bucket stored under a key prefix of an S3 bucket. It is
// safe for concurrent use and holds no resources of its own: the S3 client
// it wraps may be shared.
type Bucket struct {
	api      S3API
	bucket   string
	prefix   string
	timeout  time.Duration
	spoolDir string
	readMax  int64 // Config.VerifiedReadMax
	now      func() time.Time
	etags    atomic.Int32 // etagsUnknown, etagsMD5 or etagsOpaque

	randMu sync.Mutex // guards rand
	rand   io.Reader
}

var _ worker.R2Bucket = (*Bucket)(nil)

// Options are the injectable dependencies of a Bucket. The zero value is
// the default.
type Options struct {
	// Now is the clock Put and Complete fall back on when the store's
	// response has no Date header. Default: time.Now.
	Now func() time.Time
	// Rand is the source of versions; reads from it are serialised.
	// Default: crypto/rand.Reader.
	Rand io.Reader
}

// Open returns the Bucket cfg describes, with an S3 client of its own. It
// does not contact the store; the first operation does.
func Open(ctx context.Context, cfg Config) (*Bucket, error) {
	client, err := NewClient(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return New(client, cfg, Options{})
}

// New returns the Bucket cfg describes, over api (an *s3.Client from
// NewClient, shared by the buckets of a fleet, or a fake). cfg's endpoint,
// region and credentials are api's business and are not used here.
func New(api S3API, cfg Config, opts Options) (*Bucket, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Rand == nil {
		opts.Rand = rand.Reader
	}
	return &Bucket{
		api:      api,
		bucket:   cfg.Bucket,
		prefix:   cfg.KeyPrefix,
		timeout:  cfg.Timeout,
		spoolDir: cfg.SpoolDir,
		readMax:  cfg.VerifiedReadMax,
		now:      opts.Now,
		rand:     opts.Rand,
	}, nil
}

// s3Key validates an R2 key and returns the S3 key that stores it.
func (b *Bucket) s3Key(key string) (string, error) {
	if err := r2.ValidateKey(key); err != nil {
		return "", err
	}
	if n := len(b.prefix) + len(key); n > r2.MaxKeyBytes {
		return "", fmt.Errorf("key of %d bytes under prefix %q makes an S3 key of %d bytes, S3 allows %d: %w",
			len(key), b.prefix, n, r2.MaxKeyBytes, worker.ErrR2KeyInvalid)
	}
	return b.prefix + key, nil
}

// r2Key returns the R2 key an S3 key under the prefix stores.
func (b *Bucket) r2Key(s3Key string) string { return strings.TrimPrefix(s3Key, b.prefix) }

// call returns the context one request to the store runs under: the
// caller's, bounded by the configured timeout.
func (b *Bucket) call(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, b.timeout)
}

// newVersion returns a new object version: 128 random bits in hex.
func (b *Bucket) newVersion() (string, error) {
	var id [16]byte
	b.randMu.Lock()
	_, err := io.ReadFull(b.rand, id[:])
	b.randMu.Unlock()
	if err != nil {
		return "", fmt.Errorf("new version: %w", err)
	}
	return hex.EncodeToString(id[:]), nil
}
