package r2central

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/dwk/fleet/appliance/bindings/r2"
	"github.com/dwk/fleet/appliance/worker"
)

// condAttempts bounds how often a conditional operation starts over because
// the object changed between its HEAD and its request.
const condAttempts = 5

// errHeaderTimeout is the cause of a Get cancelled for want of response
// headers within the timeout.
var errHeaderTimeout = errors.New("no response headers before the deadline")

// Head implements worker.R2Bucket.
func (b *Bucket) Head(ctx context.Context, key string) (*worker.R2Object, error) {
	k, err := b.s3Key(key)
	if err != nil {
		return nil, fmt.Errorf("r2central head: %w", err)
	}
	return b.head(ctx, key, k)
}

// head returns the metadata of the object stored under S3 key k.
func (b *Bucket) head(ctx context.Context, key, k string) (*worker.R2Object, error) {
	cctx, cancel := b.call(ctx)
	defer cancel()
	out, err := b.api.HeadObject(cctx, &s3.HeadObjectInput{Bucket: &b.bucket, Key: &k})
	if err != nil {
		return nil, fail("head", key, ctx, cctx, err)
	}
	h := headers{
		ETag: out.ETag, LastModified: out.LastModified,
		ContentType: out.ContentType, ContentLang: out.ContentLanguage, ContentDisp: out.ContentDisposition,
		ContentEnc: out.ContentEncoding, CacheControl: out.CacheControl, ExpiresString: out.ExpiresString,
		VersionID: out.VersionId, Metadata: out.Metadata,
	}
	o, err := h.object(key, aws.ToInt64(out.ContentLength))
	if err != nil {
		return nil, fmt.Errorf("r2central head %q: %w", key, err)
	}
	return o, nil
}

// headOrNil is head, with nil for a missing object.
func (b *Bucket) headOrNil(ctx context.Context, key, k string) (*worker.R2Object, error) {
	o, err := b.head(ctx, key, k)
	if errors.Is(err, worker.ErrNotFound) {
		return nil, nil
	}
	return o, err
}

// Get implements worker.R2Bucket. Without conditions it is one GET. With
// conditions it first HEADs the object and evaluates them, so a failed
// condition never transfers the body, then GETs with If-Match pinned to the
// ETag it checked, and evaluates them once more on what the GET returned.
// Conditions are evaluated before the range.
func (b *Bucket) Get(ctx context.Context, key string, opts *worker.R2GetOptions) (*worker.R2ObjectBody, error) {
	k, err := b.s3Key(key)
	if err != nil {
		return nil, fmt.Errorf("r2central get: %w", err)
	}
	if opts == nil {
		opts = &worker.R2GetOptions{}
	}
	if opts.OnlyIf == nil {
		return b.getVerified(ctx, key, k, opts.Range, "")
	}
	for attempt := 1; ; attempt++ {
		cur, err := b.head(ctx, key, k)
		if err != nil {
			return nil, err
		}
		if err := r2.CheckConditional(opts.OnlyIf, cur); err != nil {
			return &worker.R2ObjectBody{R2Object: *cur}, fmt.Errorf("r2central get %q: %w", key, err)
		}
		ob, err := b.getVerified(ctx, key, k, opts.Range, cur.HTTPETag)
		if errors.Is(err, worker.ErrPreconditionFailed) || errors.Is(err, worker.ErrNotFound) {
			if attempt < condAttempts {
				continue // replaced or deleted since the HEAD
			}
			return &worker.R2ObjectBody{R2Object: *cur}, fmt.Errorf("r2central get %q: changed %d times while read: %w", key, attempt, worker.ErrPreconditionFailed)
		}
		if err != nil {
			return nil, err
		}
		// Same ETag, but maybe a later write of the same body.
		if err := r2.CheckConditional(opts.OnlyIf, &ob.R2Object); err != nil {
			ob.Body.Close()
			ob.Body = nil
			return ob, fmt.Errorf("r2central get %q: %w", key, err)
		}
		return ob, nil
	}
}

// get is one GET of S3 key k, if ifMatch is set only while its ETag is
// ifMatch. It also returns the body MD5 recorded at put time, if any. The
// timeout bounds the wait for the response headers; the body is then read
// under ctx alone.
func (b *Bucket) get(ctx context.Context, key, k string, rng *worker.R2Range, ifMatch string) (*worker.R2ObjectBody, []byte, error) {
	in := &s3.GetObjectInput{Bucket: &b.bucket, Key: &k}
	if h := r2.RangeHeader(rng); h != "" {
		in.Range = aws.String(h)
	}
	if ifMatch != "" {
		in.IfMatch = aws.String(ifMatch)
	}
	cctx, cancel := context.WithCancelCause(ctx)
	timer := time.AfterFunc(b.timeout, func() { cancel(errHeaderTimeout) })
	out, err := b.api.GetObject(cctx, in)
	if !timer.Stop() && err == nil {
		out.Body.Close()
		err = errHeaderTimeout
	}
	if err != nil {
		err = fail("get", key, ctx, cctx, err)
		cancel(nil)
		return nil, nil, err
	}
	h := headers{
		ETag: out.ETag, LastModified: out.LastModified,
		ContentType: out.ContentType, ContentLang: out.ContentLanguage, ContentDisp: out.ContentDisposition,
		ContentEnc: out.ContentEncoding, CacheControl: out.CacheControl, ExpiresString: out.ExpiresString,
		VersionID: out.VersionId, Metadata: out.Metadata,
	}
	length := aws.ToInt64(out.ContentLength)
	size, part, err := contentRange(aws.ToString(out.ContentRange), length)
	if err == nil && rng != nil && part == nil {
		part = &worker.R2Range{Offset: 0, Length: length} // the store sent it all
	}
	var o *worker.R2Object
	if err == nil {
		o, err = h.object(key, size)
	}
	if err != nil {
		out.Body.Close()
		cancel(nil)
		return nil, nil, fmt.Errorf("r2central get %q: %w", key, err)
	}
	if rng != nil {
		o.Range = part
	}
	return &worker.R2ObjectBody{R2Object: *o, Body: &body{rc: out.Body, ctx: ctx, cancel: cancel, key: key}}, h.bodyMD5(), nil
}

// contentRange parses a Content-Range header ("bytes 10-99/100") into the
// object's size and the part returned. Without the header the whole object
// of length bytes was returned and part is nil.
func contentRange(h string, length int64) (size int64, part *worker.R2Range, err error) {
	if h == "" {
		return length, nil, nil
	}
	bad := fmt.Errorf("malformed Content-Range %q", h)
	spec, ok := strings.CutPrefix(h, "bytes ")
	if !ok {
		return 0, nil, bad
	}
	span, total, ok := strings.Cut(spec, "/")
	if !ok {
		return 0, nil, bad
	}
	first, last, ok := strings.Cut(span, "-")
	if !ok {
		return 0, nil, bad
	}
	f, err1 := strconv.ParseInt(first, 10, 64)
	l, err2 := strconv.ParseInt(last, 10, 64)
	size, err3 := strconv.ParseInt(total, 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || l < f {
		return 0, nil, bad
	}
	return size, &worker.R2Range{Offset: f, Length: l - f + 1}, nil
}

// body is a Get's response body. Closing it releases the request; a read
// that fails for another reason than the caller's context is an
// UnavailableError.
type body struct {
	rc     io.ReadCloser
	ctx    context.Context
	cancel context.CancelCauseFunc
	key    string
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if err != nil && err != io.EOF && b.ctx.Err() == nil {
		err = &UnavailableError{Op: "get", Key: b.key, Err: fmt.Errorf("read body: %w", err)}
	}
	return n, err
}

func (b *body) Close() error {
	err := b.rc.Close()
	b.cancel(nil)
	return err
}
