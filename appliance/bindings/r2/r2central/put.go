package r2central

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go/middleware"

	"github.com/dwk/fleet/appliance/bindings/r2"
	"github.com/dwk/fleet/appliance/worker"
)

// Put implements worker.R2Bucket. The body is spooled and checked against
// the given checksums before anything is sent. With conditions, Put HEADs
// the object, evaluates them, and writes with If-Match (or If-None-Match: *)
// pinned to the state it checked; when that state changed meanwhile it
// starts over.
func (b *Bucket) Put(ctx context.Context, key string, body io.Reader, opts *worker.R2PutOptions) (*worker.R2Object, error) {
	k, err := b.s3Key(key)
	if err != nil {
		return nil, fmt.Errorf("r2central put: %w", err)
	}
	if opts == nil {
		opts = &worker.R2PutOptions{}
	}
	if body == nil {
		body = strings.NewReader("")
	}
	sp, err := spool(ctx, body, b.spoolDir, opts.SHA256 != nil)
	if err != nil {
		return nil, fmt.Errorf("r2central put %q: %w", key, err)
	}
	defer sp.Close()
	if opts.MD5 != nil && !bytes.Equal(opts.MD5, sp.md5) {
		return nil, fmt.Errorf("r2central put %q: md5 %x, body has %x: %w", key, opts.MD5, sp.md5, worker.ErrChecksumMismatch)
	}
	if opts.SHA256 != nil && !bytes.Equal(opts.SHA256, sp.sha256) {
		return nil, fmt.Errorf("r2central put %q: sha256 %x, body has %x: %w", key, opts.SHA256, sp.sha256, worker.ErrChecksumMismatch)
	}
	version, err := b.newVersion()
	if err != nil {
		return nil, fmt.Errorf("r2central put %q: %w", key, err)
	}
	meta, err := encodeMetadata(version, opts.CustomMetadata, opts.HTTPMetadata, opts.MD5, opts.SHA256)
	if err != nil {
		return nil, fmt.Errorf("r2central put %q: %w", key, err)
	}
	meta[metaBodyMD5] = hex.EncodeToString(sp.md5)
	in := &s3.PutObjectInput{
		Bucket:        &b.bucket,
		Key:           &k,
		Body:          sp.r,
		ContentLength: aws.Int64(sp.size),
		ContentMD5:    aws.String(base64.StdEncoding.EncodeToString(sp.md5)),
		Metadata:      meta,
	}
	setHTTPMetadata(opts.HTTPMetadata, &in.ContentType, &in.ContentLanguage, &in.ContentDisposition,
		&in.ContentEncoding, &in.CacheControl, &in.Expires)
	written := func(out *s3.PutObjectOutput) *worker.R2Object {
		etag, _ := r2.UnquoteETag(aws.ToString(out.ETag))
		if etag == "" {
			etag = r2.ETag(sp.md5)
		}
		b.learnETags(etag, sp.md5)
		return &worker.R2Object{
			Key:            key,
			Version:        version,
			Size:           sp.size,
			ETag:           etag,
			HTTPETag:       r2.QuoteETag(etag),
			Uploaded:       b.serverTime(out.ResultMetadata),
			HTTPMetadata:   storedHTTPMetadata(opts.HTTPMetadata),
			CustomMetadata: maps.Clone(opts.CustomMetadata),
			Checksums:      worker.R2Checksums{MD5: bytes.Clone(opts.MD5), SHA256: bytes.Clone(opts.SHA256)},
		}
	}
	if opts.OnlyIf == nil {
		out, err := b.putObject(ctx, key, in)
		if err != nil {
			return nil, err
		}
		return written(out), nil
	}
	for attempt := 1; ; attempt++ {
		cur, err := b.headOrNil(ctx, key, k)
		if err != nil {
			return nil, err
		}
		if err := r2.CheckConditional(opts.OnlyIf, cur); err != nil {
			return nil, fmt.Errorf("r2central put %q: %w", key, err)
		}
		in.IfMatch, in.IfNoneMatch = nil, nil
		if cur == nil {
			in.IfNoneMatch = aws.String("*")
		} else {
			in.IfMatch = aws.String(cur.HTTPETag)
		}
		if err := sp.rewind(); err != nil {
			return nil, fmt.Errorf("r2central put %q: %w", key, err)
		}
		out, err := b.putObject(ctx, key, in)
		if err == nil {
			return written(out), nil
		}
		if !errors.Is(err, worker.ErrPreconditionFailed) {
			return nil, err
		}
		// An attempt whose answer was lost may have stored this very write,
		// and the SDK's retry of it then failed the pin.
		if h, herr := b.headOrNil(ctx, key, k); herr == nil && h != nil && h.Version == version {
			return h, nil
		}
		if attempt == condAttempts {
			return nil, fmt.Errorf("r2central put %q: changed %d times while written: %w", key, attempt, worker.ErrPreconditionFailed)
		}
	}
}

// putObject is one PutObject under the call timeout.
func (b *Bucket) putObject(ctx context.Context, key string, in *s3.PutObjectInput) (*s3.PutObjectOutput, error) {
	cctx, cancel := b.call(ctx)
	defer cancel()
	out, err := b.api.PutObject(cctx, in)
	if err != nil {
		return nil, fail("put", key, ctx, cctx, err)
	}
	return out, nil
}

// setHTTPMetadata copies the non-empty fields of m into the request fields
// of a PutObject or CreateMultipartUpload.
func setHTTPMetadata(m worker.R2HTTPMetadata, typ, lang, disp, enc, cache **string, expires **time.Time) {
	set := func(dst **string, v string) {
		if v != "" {
			*dst = aws.String(v)
		}
	}
	set(typ, m.ContentType)
	set(lang, m.ContentLanguage)
	set(disp, m.ContentDisposition)
	set(enc, m.ContentEncoding)
	set(cache, m.CacheControl)
	if !m.CacheExpiry.IsZero() {
		*expires = aws.Time(m.CacheExpiry)
	}
}

// storedHTTPMetadata is m as a later Head reports it: Expires is an HTTP
// date, in whole seconds.
func storedHTTPMetadata(m worker.R2HTTPMetadata) worker.R2HTTPMetadata {
	if !m.CacheExpiry.IsZero() {
		m.CacheExpiry = m.CacheExpiry.Truncate(time.Second).UTC()
	}
	return m
}

// serverTime is the Date header of a write's response, in whole seconds as
// Last-Modified has it, or the local clock when there is none.
func (b *Bucket) serverTime(md middleware.Metadata) time.Time {
	if t, ok := awsmiddleware.GetServerTime(md); ok && !t.IsZero() {
		return t.Truncate(time.Second).UTC()
	}
	return b.now().Truncate(time.Second).UTC()
}
