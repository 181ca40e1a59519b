package r2local

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/dwk/fleet/appliance/bindings/r2"
	"github.com/dwk/fleet/appliance/worker"
)

// getAttempts bounds how often Get re-reads the index when a concurrent
// write removed the body it was about to open.
const getAttempts = 8

// Head implements worker.R2Bucket.
func (b *Bucket) Head(ctx context.Context, key string) (*worker.R2Object, error) {
	if err := r2.ValidateKey(key); err != nil {
		return nil, fmt.Errorf("r2local head: %w", err)
	}
	o, err := lookup(ctx, b.db, key)
	if err != nil {
		return nil, fmt.Errorf("r2local head %q: %w", key, err)
	}
	return o, nil
}

// Get implements worker.R2Bucket. Preconditions are evaluated before the
// range. A ranged Get sets Range to the absolute offset and length returned.
func (b *Bucket) Get(ctx context.Context, key string, opts *worker.R2GetOptions) (*worker.R2ObjectBody, error) {
	if err := r2.ValidateKey(key); err != nil {
		return nil, fmt.Errorf("r2local get: %w", err)
	}
	if opts == nil {
		opts = &worker.R2GetOptions{}
	}
	for attempt := 1; ; attempt++ {
		o, f, err := b.openObject(ctx, key)
		if errors.Is(err, fs.ErrNotExist) && attempt < getAttempts {
			continue // replaced or deleted since the index was read
		}
		if err != nil {
			return nil, fmt.Errorf("r2local get %q: %w", key, err)
		}
		if err := r2.CheckConditional(opts.OnlyIf, o); err != nil {
			f.Close()
			return &worker.R2ObjectBody{R2Object: *o}, fmt.Errorf("r2local get %q: %w", key, err)
		}
		rng, err := r2.ResolveRange(opts.Range, o.Size)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("r2local get %q: %w", key, err)
		}
		ob := &worker.R2ObjectBody{R2Object: *o, Body: f}
		if opts.Range != nil {
			ob.Range = &rng
			ob.Body = sectionBody{io.NewSectionReader(f, rng.Offset, rng.Length), f}
		}
		return ob, nil
	}
}

// openObject reads the index row of key and opens its body. Once the file
// is open, later writes cannot take it away.
func (b *Bucket) openObject(ctx context.Context, key string) (*worker.R2Object, *os.File, error) {
	o, err := lookup(ctx, b.db, key)
	if err != nil {
		return nil, nil, err
	}
	f, err := b.blobs.open(o.Version)
	if err != nil {
		return nil, nil, fmt.Errorf("open body: %w", err)
	}
	return o, f, nil
}

// sectionBody is a ranged body that closes the file it reads.
type sectionBody struct {
	*io.SectionReader
	f *os.File
}

func (s sectionBody) Close() error { return s.f.Close() }

// Put implements worker.R2Bucket. The body is streamed to disk while its
// MD5 (and SHA-256 when one is given to check) is computed; conditions are
// checked once before the body is read, to fail fast, and again atomically
// with the write.
func (b *Bucket) Put(ctx context.Context, key string, body io.Reader, opts *worker.R2PutOptions) (*worker.R2Object, error) {
	if err := r2.ValidateKey(key); err != nil {
		return nil, fmt.Errorf("r2local put: %w", err)
	}
	if opts == nil {
		opts = &worker.R2PutOptions{}
	}
	if body == nil {
		body = strings.NewReader("")
	}
	if opts.OnlyIf != nil {
		cur, err := lookupOrNil(ctx, b.db, key)
		if err != nil {
			return nil, fmt.Errorf("r2local put %q: %w", key, err)
		}
		if err := r2.CheckConditional(opts.OnlyIf, cur); err != nil {
			return nil, fmt.Errorf("r2local put %q: %w", key, err)
		}
	}
	o, err := b.writeBody(ctx, key, body, opts)
	if err != nil {
		return nil, fmt.Errorf("r2local put %q: %w", key, err)
	}
	var old string
	err = b.writeTx(ctx, func(tx *sql.Tx) error {
		if opts.OnlyIf != nil {
			cur, err := lookupOrNil(ctx, tx, key)
			if err != nil {
				return err
			}
			if err := r2.CheckConditional(opts.OnlyIf, cur); err != nil {
				return err
			}
		}
		o.Uploaded = b.uploadedNow() // in commit order, so later writes never look older
		var err error
		old, err = store(ctx, tx, o)
		return err
	})
	if err != nil {
		b.blobs.remove(o.Version)
		return nil, fmt.Errorf("r2local put %q: %w", key, err)
	}
	b.blobs.remove(old) // on failure the next Open sweeps it
	return o, nil
}

// writeBody makes body a durable blob named by a new version and returns
// the object that will name it. On a checksum mismatch it keeps nothing.
func (b *Bucket) writeBody(ctx context.Context, key string, body io.Reader, opts *worker.R2PutOptions) (*worker.R2Object, error) {
	p, err := b.blobs.begin()
	if err != nil {
		return nil, err
	}
	md5h := md5.New()
	hashes := []io.Writer{p.f, md5h}
	var sha hash.Hash
	if opts.SHA256 != nil {
		sha = sha256.New()
		hashes = append(hashes, sha)
	}
	size, err := io.Copy(io.MultiWriter(hashes...), ctxReader{ctx, body})
	if err != nil {
		p.discard()
		return nil, fmt.Errorf("write body: %w", err)
	}
	sum := md5h.Sum(nil)
	if opts.MD5 != nil && !bytes.Equal(opts.MD5, sum) {
		p.discard()
		return nil, fmt.Errorf("md5 %x, body has %x: %w", opts.MD5, sum, worker.ErrChecksumMismatch)
	}
	if sha != nil {
		if got := sha.Sum(nil); !bytes.Equal(opts.SHA256, got) {
			p.discard()
			return nil, fmt.Errorf("sha256 %x, body has %x: %w", opts.SHA256, got, worker.ErrChecksumMismatch)
		}
	}
	version, err := b.newID()
	if err != nil {
		p.discard()
		return nil, err
	}
	if err := p.commit(version); err != nil {
		return nil, err
	}
	etag := r2.ETag(sum)
	return &worker.R2Object{
		Key:            key,
		Version:        version,
		Size:           size,
		ETag:           etag,
		HTTPETag:       r2.QuoteETag(etag),
		HTTPMetadata:   opts.HTTPMetadata,
		CustomMetadata: cloneMetadata(opts.CustomMetadata),
		Checksums: worker.R2Checksums{
			MD5:    bytes.Clone(opts.MD5),
			SHA256: bytes.Clone(opts.SHA256),
		},
	}, nil
}

// Delete implements worker.R2Bucket. All keys are removed in one
// transaction.
func (b *Bucket) Delete(ctx context.Context, keys ...string) error {
	if len(keys) > r2.MaxDeleteKeys {
		return fmt.Errorf("r2local delete: %d keys, at most %d allowed", len(keys), r2.MaxDeleteKeys)
	}
	for _, key := range keys {
		if err := r2.ValidateKey(key); err != nil {
			return fmt.Errorf("r2local delete: %w", err)
		}
	}
	var gone []string
	err := b.writeTx(ctx, func(tx *sql.Tx) error {
		for _, key := range keys {
			var version string
			err := tx.QueryRowContext(ctx, `DELETE FROM objects WHERE key = ? RETURNING version`, []byte(key)).Scan(&version)
			switch {
			case errors.Is(err, sql.ErrNoRows):
			case err != nil:
				return fmt.Errorf("write index: %w", err)
			default:
				gone = append(gone, version)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("r2local delete: %w", err)
	}
	b.blobs.remove(gone...) // on failure the next Open sweeps them
	return nil
}
