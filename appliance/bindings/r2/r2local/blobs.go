package r2local

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// blobStore keeps bodies as files named by id under dir/blobs, fanned out
// over 256 subdirectories, with dir/tmp for bodies being written.
type blobStore struct {
	dir string
}

func (s blobStore) tmpDir() string { return filepath.Join(s.dir, "tmp") }

func (s blobStore) path(id string) string {
	return filepath.Join(s.dir, "blobs", id[:2], id)
}

// init creates the directory tree.
func (s blobStore) init() error {
	for i := range 256 {
		if err := os.MkdirAll(filepath.Join(s.dir, "blobs", fmt.Sprintf("%02x", i)), 0o755); err != nil {
			return fmt.Errorf("create blob directories: %w", err)
		}
	}
	if err := os.MkdirAll(s.tmpDir(), 0o755); err != nil {
		return fmt.Errorf("create tmp directory: %w", err)
	}
	return nil
}

// open opens the blob id for reading. A missing blob yields an error
// matching fs.ErrNotExist.
func (s blobStore) open(id string) (*os.File, error) {
	return os.Open(s.path(id))
}

// remove deletes blobs; missing ones and empty ids are not an error. It
// tries every id and returns the first error.
func (s blobStore) remove(ids ...string) error {
	var first error
	for _, id := range ids {
		if id == "" {
			continue
		}
		if err := removeFile(s.path(id)); err != nil && first == nil {
			first = fmt.Errorf("remove blob %s: %w", id, err)
		}
	}
	return first
}

// sweep empties tmp/ and removes every blob not in keep.
func (s blobStore) sweep(keep map[string]bool) error {
	tmp, err := os.ReadDir(s.tmpDir())
	if err != nil {
		return fmt.Errorf("sweep tmp: %w", err)
	}
	for _, e := range tmp {
		if err := removeFile(filepath.Join(s.tmpDir(), e.Name())); err != nil {
			return fmt.Errorf("sweep tmp: %w", err)
		}
	}
	for i := range 256 {
		sub := filepath.Join(s.dir, "blobs", fmt.Sprintf("%02x", i))
		entries, err := os.ReadDir(sub)
		if err != nil {
			return fmt.Errorf("sweep blobs: %w", err)
		}
		for _, e := range entries {
			if keep[e.Name()] {
				continue
			}
			if err := removeFile(filepath.Join(sub, e.Name())); err != nil {
				return fmt.Errorf("sweep blobs: %w", err)
			}
		}
	}
	return nil
}

// pending is a body being written to tmp/. Exactly one of commit and
// discard must be called.
type pending struct {
	store blobStore
	f     *os.File
}

// begin starts a new body in tmp/.
func (s blobStore) begin() (*pending, error) {
	f, err := os.CreateTemp(s.tmpDir(), "body-*")
	if err != nil {
		return nil, fmt.Errorf("create body: %w", err)
	}
	return &pending{store: s, f: f}, nil
}

// commit makes the body durable as blob id: fsync, rename into blobs/, and
// fsync the directory so the rename survives a crash too.
func (p *pending) commit(id string) error {
	if err := p.f.Sync(); err != nil {
		p.discard()
		return fmt.Errorf("sync body: %w", err)
	}
	if err := p.f.Close(); err != nil {
		os.Remove(p.f.Name())
		return fmt.Errorf("close body: %w", err)
	}
	dst := p.store.path(id)
	if err := os.Rename(p.f.Name(), dst); err != nil {
		os.Remove(p.f.Name())
		return fmt.Errorf("rename body: %w", err)
	}
	if err := syncDir(filepath.Dir(dst)); err != nil {
		os.Remove(dst)
		return fmt.Errorf("sync blob directory: %w", err)
	}
	return nil
}

// discard throws the body away.
func (p *pending) discard() {
	p.f.Close()
	os.Remove(p.f.Name())
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// ctxReader fails reads once ctx is done, so a long copy stops when the
// caller gives up.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
