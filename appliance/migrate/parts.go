package migrate

import (
	"context"
	"crypto/md5"
	"fmt"
	"hash"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/bindings/r2"
	"github.com/dwk/fleet/appliance/worker"
)

// A multipart object's ETag is the MD5 of its parts' MD5s and their count,
// so a copy keeps it only when uploaded in parts with the same boundaries.
// Neither store, nor S3 in general, reports those boundaries after the
// upload completed. R2 requires every part but the last to have one size,
// which most S3 clients also follow; scanParts finds that size by hashing
// the body along each plausible one and keeping the size whose layout
// reproduces the ETag. The ETag itself proves the match.

// abortTimeout bounds the abort of a failed upload.
const abortTimeout = 30 * time.Second

// maxPartGuesses bounds the part sizes tried for one object: each costs an
// MD5 of the body, all computed in one read.
const maxPartGuesses = 12

// multipartCount returns the part count of a multipart ETag, or 0 when
// etag is a simple put's.
func multipartCount(etag string) int {
	etag, _ = r2.UnquoteETag(etag)
	_, n, ok := strings.Cut(etag, "-")
	if !ok {
		return 0
	}
	c, err := strconv.Atoi(n)
	if err != nil || c < 1 {
		return 0
	}
	return c
}

// partGuesses returns the part sizes worth trying for an object of size
// bytes in n uniform parts: the sizes in range that are powers of two or
// whole multiples of a MiB or of a million bytes, and the even split.
func partGuesses(size int64, n int) []int64 {
	if n == 1 {
		return []int64{size}
	}
	// (n-1)*p < size <= n*p, and every part but the last is at least
	// r2.MinPartSize.
	lo := max((size+int64(n)-1)/int64(n), r2.MinPartSize)
	hi := (size - 1) / int64(n-1)
	if lo > hi {
		return nil
	}
	var out []int64
	add := func(p int64) {
		if p >= lo && p <= hi && !slices.Contains(out, p) && len(out) < maxPartGuesses {
			out = append(out, p)
		}
	}
	for p := int64(1 << 20); p <= hi; p *= 2 {
		add(p)
	}
	add(lo)
	for _, unit := range []int64{1 << 20, 1_000_000} {
		for p := (lo + unit - 1) / unit * unit; p <= hi && len(out) < maxPartGuesses; p += unit {
			add(p)
		}
	}
	return out
}

// layout hashes a body along one part size.
type layout struct {
	size, in int64 // part size; bytes in the current part
	h        hash.Hash
	sums     [][]byte
}

func (l *layout) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		take := min(int64(len(p)), l.size-l.in)
		l.h.Write(p[:take])
		l.in += take
		p = p[take:]
		if l.in == l.size {
			l.cut()
		}
	}
	return n, nil
}

// cut ends the current part.
func (l *layout) cut() {
	l.sums = append(l.sums, l.h.Sum(nil))
	l.h.Reset()
	l.in = 0
}

func (l *layout) etag() string {
	if l.in > 0 {
		l.cut()
	}
	return r2.MultipartETag(l.sums)
}

// scanParts reads o, a multipart object of b, once and returns its body's
// MD5 and the part size it was uploaded with, or 0 when no plausible size
// reproduces its ETag.
func scanParts(ctx context.Context, b worker.R2Bucket, o *worker.R2Object) (sum []byte, part int64, err error) {
	whole := md5.New()
	ws := []io.Writer{whole}
	var ls []*layout
	for _, p := range partGuesses(o.Size, multipartCount(o.ETag)) {
		l := &layout{size: p, h: md5.New()}
		ls = append(ls, l)
		ws = append(ws, l)
	}
	body, err := b.Get(ctx, o.Key, sameObject(o))
	if err != nil {
		return nil, 0, err
	}
	defer body.Body.Close()
	if _, err := io.Copy(io.MultiWriter(ws...), body.Body); err != nil {
		return nil, 0, fmt.Errorf("read: %w", err)
	}
	want, _ := r2.UnquoteETag(o.ETag)
	for _, l := range ls {
		if l.etag() == want {
			return whole.Sum(nil), l.size, nil
		}
	}
	return whole.Sum(nil), 0, nil
}

// sameObject makes a Get fail unless the object is still o, so that the
// reads of one copy see one body.
func sameObject(o *worker.R2Object) *worker.R2GetOptions {
	return &worker.R2GetOptions{OnlyIf: &worker.R2Conditional{EtagMatches: o.ETag}}
}

// putParts uploads body to dst as key in parts of size bytes, with o's
// metadata, and returns the stored object. The upload is aborted when
// any step fails.
func putParts(ctx context.Context, dst worker.R2Bucket, key string, o *worker.R2ObjectBody, size int64) (*worker.R2Object, error) {
	up, err := dst.CreateMultipartUpload(ctx, key, &worker.R2MultipartOptions{HTTPMetadata: o.HTTPMetadata, CustomMetadata: o.CustomMetadata})
	if err != nil {
		return nil, err
	}
	var parts []worker.R2UploadedPart
	for left, n := o.Size, 1; left > 0 || n == 1; n++ {
		take := min(left, size)
		p, err := up.UploadPart(ctx, n, io.LimitReader(o.Body, take))
		if err != nil {
			abort(up)
			return nil, fmt.Errorf("upload part %d: %w", n, err)
		}
		parts = append(parts, p)
		left -= take
	}
	got, err := up.Complete(ctx, parts)
	if err != nil {
		abort(up)
		return nil, err
	}
	return got, nil
}

// abort discards an upload that failed, on its own deadline: the copy's
// context may be what ended it.
func abort(up worker.R2MultipartUpload) {
	ctx, cancel := context.WithTimeout(context.Background(), abortTimeout)
	defer cancel()
	_ = up.Abort(ctx) // an upload left behind expires with the store's policy
}
