package r2central

import (
	"bytes"
	"context"
	"crypto/md5"
	"fmt"
	"io"

	"github.com/dwk/fleet/appliance/bindings/r2"
	"github.com/dwk/fleet/appliance/worker"
)

// What the store's ETags of simple puts are, as Put responses show.
const (
	etagsUnknown = iota
	// etagsMD5: the ETag of a simple put is its body's MD5 (AWS S3 without
	// KMS encryption, R2, versitygw, MinIO).
	etagsMD5
	// etagsOpaque: the store computes ETags otherwise (AWS S3 with SSE-KMS
	// or SSE-C).
	etagsOpaque
)

// learnETags records what a Put response says about the store's ETags.
func (b *Bucket) learnETags(etag string, bodyMD5 []byte) {
	mode := int32(etagsOpaque)
	if etag == r2.ETag(bodyMD5) {
		mode = etagsMD5
	}
	b.etags.Store(mode)
}

// getVerified is get, with a whole body of up to readMax bytes read before
// it returns and checked against the MD5 its Put recorded.
//
// A body that does not match was paired with another write's metadata by a
// store whose GET is not atomic, and is fetched again. A body that matches
// may still come with another write's ETag: versitygw's posix backend reads
// the ETag by path before it opens the file, so an overwrite in between
// pairs the new body with the old ETag. When the store's ETags are body
// MD5s, the ETag is then set from the verified body; when that is not yet
// known, the body is fetched again, and a mismatch that persists shows the
// store's ETags are something else.
func (b *Bucket) getVerified(ctx context.Context, key, k string, rng *worker.R2Range, ifMatch string) (*worker.R2ObjectBody, error) {
	for attempt := 1; ; attempt++ {
		ob, sum, err := b.get(ctx, key, k, rng, ifMatch)
		if err != nil || rng != nil || sum == nil || ob.Size > b.readMax {
			return ob, err
		}
		data, err := io.ReadAll(io.LimitReader(ob.Body, ob.Size+1))
		ob.Body.Close()
		if err != nil {
			return nil, err
		}
		got := md5.Sum(data)
		bodyOK := int64(len(data)) == ob.Size && bytes.Equal(got[:], sum)
		if bodyOK {
			ob.Body = io.NopCloser(bytes.NewReader(data))
			want := r2.ETag(sum)
			switch mode := b.etags.Load(); {
			case ob.ETag == want || mode == etagsOpaque:
				return ob, nil
			case mode == etagsMD5:
				ob.ETag, ob.HTTPETag = want, r2.QuoteETag(want)
				return ob, nil
			case attempt == condAttempts:
				b.etags.Store(etagsOpaque)
				return ob, nil
			}
			continue
		}
		if attempt == condAttempts {
			return nil, fmt.Errorf("r2central get %q: %d bodies did not match the MD5 %x recorded at put time: %w", key, attempt, sum, ErrTornRead)
		}
	}
}
