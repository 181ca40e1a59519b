package migrate

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/dwk/fleet/appliance/bindings/r2"
	"github.com/dwk/fleet/appliance/worker"
)

// r2Kind copies an R2 bucket object by object, with each object's HTTP
// and custom metadata. An object's digest covers its size, the MD5 of its
// body and its metadata; the copy is put with that MD5, which the
// destination checks against the body it stores. A single-part object
// keeps its ETag (the MD5). A multipart one is uploaded in parts of the
// size that reproduces its ETag (see parts.go) and keeps it too; when no
// size does, it is put whole, gets a new ETag, and is reported.
type r2Kind struct {
	src, dst worker.R2Bucket

	mu      sync.Mutex
	changed []string // multipart objects copied with a new ETag
}

func (k *r2Kind) entries(ctx context.Context, from bool) (map[string]entry, error) {
	b := k.dst
	if from {
		b = k.src
	}
	out := map[string]entry{}
	opts := &worker.R2ListOptions{}
	for {
		res, err := b.List(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("list: %w", err)
		}
		for _, o := range res.Objects {
			h, err := b.Head(ctx, o.Key)
			if err != nil {
				if errors.Is(err, worker.ErrNotFound) {
					continue // deleted since it was listed
				}
				return nil, fmt.Errorf("head %q: %w", o.Key, err)
			}
			sum, err := contentMD5(ctx, b, h)
			if err != nil {
				return nil, fmt.Errorf("checksum %q: %w", o.Key, err)
			}
			out[o.Key] = entry{digest: r2Digest(h, sum), size: h.Size}
		}
		if !res.Truncated {
			return out, nil
		}
		opts = &worker.R2ListOptions{Cursor: res.Cursor}
	}
}

// contentMD5 is the MD5 of o's body: its stored checksum, or its ETag when
// that is one, or else the body read through.
func contentMD5(ctx context.Context, b worker.R2Bucket, o *worker.R2Object) ([]byte, error) {
	if len(o.Checksums.MD5) == md5.Size {
		return o.Checksums.MD5, nil
	}
	if e := strings.Trim(o.ETag, `"`); len(e) == 2*md5.Size && !strings.Contains(e, "-") {
		if sum, err := hex.DecodeString(e); err == nil {
			return sum, nil
		}
	}
	body, err := b.Get(ctx, o.Key, nil)
	if err != nil {
		return nil, err
	}
	defer body.Body.Close()
	h := md5.New()
	if _, err := io.Copy(h, body.Body); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// r2Digest is an object's digest: size, body MD5, HTTP and custom
// metadata.
func r2Digest(o *worker.R2Object, sum []byte) string {
	custom := make([]string, 0, len(o.CustomMetadata))
	for k, v := range o.CustomMetadata {
		custom = append(custom, k+"="+v)
	}
	sort.Strings(custom)
	hm, _ := json.Marshal(o.HTTPMetadata)
	cm, _ := json.Marshal(custom)
	return fmt.Sprintf("%d %x %s %s", o.Size, sum, hm, cm)
}

func (k *r2Kind) copy(ctx context.Context, key string, _ bool) error {
	h, err := k.src.Head(ctx, key)
	if err != nil {
		return err
	}
	var sum []byte
	var part int64
	if multipartCount(h.ETag) > 0 {
		if sum, part, err = scanParts(ctx, k.src, h); err != nil {
			return err
		}
	} else if sum, err = contentMD5(ctx, k.src, h); err != nil {
		return err
	}
	body, err := k.src.Get(ctx, key, sameObject(h))
	if err != nil {
		return err
	}
	defer body.Body.Close()
	if part == 0 {
		if multipartCount(h.ETag) > 0 {
			k.newETag(key)
		}
		_, err = k.dst.Put(ctx, key, body.Body, &worker.R2PutOptions{
			HTTPMetadata: body.HTTPMetadata, CustomMetadata: body.CustomMetadata, MD5: sum,
		})
		return err
	}
	got, err := putParts(ctx, k.dst, key, body, part)
	if err != nil {
		return err
	}
	if want, _ := r2.UnquoteETag(h.ETag); got.ETag != want {
		return fmt.Errorf("uploaded in parts of %d bytes, the copy has ETag %s, not the source's %s", part, got.ETag, want)
	}
	return nil
}

// newETag records a multipart object copied with a new ETag.
func (k *r2Kind) newETag(key string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.changed = append(k.changed, key)
}

// newETags returns the multipart objects copied with a new ETag, sorted.
func (k *r2Kind) newETags() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	sort.Strings(k.changed)
	return k.changed
}
