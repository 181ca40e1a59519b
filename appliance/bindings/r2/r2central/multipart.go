package r2central

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/dwk/fleet/appliance/bindings/r2"
	"github.com/dwk/fleet/appliance/worker"
)

// CreateMultipartUpload implements worker.R2Bucket. The object's metadata
// and its Version are fixed now, as S3 takes them at creation.
func (b *Bucket) CreateMultipartUpload(ctx context.Context, key string, opts *worker.R2MultipartOptions) (worker.R2MultipartUpload, error) {
	k, err := b.s3Key(key)
	if err != nil {
		return nil, fmt.Errorf("r2central create multipart upload: %w", err)
	}
	if opts == nil {
		opts = &worker.R2MultipartOptions{}
	}
	version, err := b.newVersion()
	if err != nil {
		return nil, fmt.Errorf("r2central create multipart upload %q: %w", key, err)
	}
	meta, err := encodeMetadata(version, opts.CustomMetadata, opts.HTTPMetadata, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("r2central create multipart upload %q: %w", key, err)
	}
	in := &s3.CreateMultipartUploadInput{Bucket: &b.bucket, Key: &k, Metadata: meta}
	setHTTPMetadata(opts.HTTPMetadata, &in.ContentType, &in.ContentLanguage, &in.ContentDisposition,
		&in.ContentEncoding, &in.CacheControl, &in.Expires)
	cctx, cancel := b.call(ctx)
	defer cancel()
	out, err := b.api.CreateMultipartUpload(cctx, in)
	if err != nil {
		return nil, fail("create multipart upload", key, ctx, cctx, err)
	}
	if aws.ToString(out.UploadId) == "" {
		return nil, fmt.Errorf("r2central create multipart upload %q: the store returned no upload id", key)
	}
	return &upload{b: b, key: key, k: k, id: aws.ToString(out.UploadId)}, nil
}

// ResumeMultipartUpload implements worker.R2Bucket. An invalid key is
// reported by the upload's methods.
func (b *Bucket) ResumeMultipartUpload(key, uploadID string) worker.R2MultipartUpload {
	k, err := b.s3Key(key)
	return &upload{b: b, key: key, k: k, id: uploadID, keyErr: err}
}

// upload is a multipart upload of the S3 key k.
type upload struct {
	b      *Bucket
	key, k string
	id     string
	keyErr error // why key is invalid, from ResumeMultipartUpload
}

var _ worker.R2MultipartUpload = (*upload)(nil)

// Key implements worker.R2MultipartUpload.
func (u *upload) Key() string { return u.key }

// UploadID implements worker.R2MultipartUpload.
func (u *upload) UploadID() string { return u.id }

// UploadPart implements worker.R2MultipartUpload. The part is spooled like
// a Put body, sent with its Content-MD5, and retried like one: uploading a
// part number again replaces it.
func (u *upload) UploadPart(ctx context.Context, n int, body io.Reader) (worker.R2UploadedPart, error) {
	const op = "upload part"
	if u.keyErr != nil {
		return worker.R2UploadedPart{}, fmt.Errorf("r2central %s: %w", op, u.keyErr)
	}
	if n < 1 || n > r2.MaxPartNumber {
		return worker.R2UploadedPart{}, fmt.Errorf("r2central %s %q: part number %d not in 1..%d: %w", op, u.key, n, r2.MaxPartNumber, worker.ErrInvalidPart)
	}
	if body == nil {
		body = strings.NewReader("")
	}
	sp, err := spool(ctx, body, u.b.spoolDir, false)
	if err != nil {
		return worker.R2UploadedPart{}, fmt.Errorf("r2central %s %q: %w", op, u.key, err)
	}
	defer sp.Close()
	cctx, cancel := u.b.call(ctx)
	defer cancel()
	out, err := u.b.api.UploadPart(cctx, &s3.UploadPartInput{
		Bucket:        &u.b.bucket,
		Key:           &u.k,
		UploadId:      &u.id,
		PartNumber:    aws.Int32(int32(n)),
		Body:          sp.r,
		ContentLength: aws.Int64(sp.size),
		ContentMD5:    aws.String(base64.StdEncoding.EncodeToString(sp.md5)),
	})
	if err != nil {
		return worker.R2UploadedPart{}, fail(op, u.key, ctx, cctx, err)
	}
	etag, _ := r2.UnquoteETag(aws.ToString(out.ETag))
	if etag == "" {
		etag = r2.ETag(sp.md5)
	}
	return worker.R2UploadedPart{PartNumber: n, ETag: etag}, nil
}

// Complete implements worker.R2MultipartUpload. Parts must be listed in
// strictly ascending order, as in S3; that is checked before the store is
// asked. Some stores (AWS S3, versitygw) answer a Complete of an upload
// that was already completed with success, so Complete first checks with
// ListParts that the upload is still open, as R2 requires. The Complete
// request itself is never retried (see the package doc). The object
// returned comes from a HEAD after the upload; when another write replaced
// the object in between, only Key, ETag and Uploaded are known.
func (u *upload) Complete(ctx context.Context, parts []worker.R2UploadedPart) (*worker.R2Object, error) {
	const op = "complete multipart upload"
	if u.keyErr != nil {
		return nil, fmt.Errorf("r2central %s: %w", op, u.keyErr)
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("r2central %s %q: no parts: %w", op, u.key, worker.ErrInvalidPart)
	}
	completed := make([]types.CompletedPart, len(parts))
	for i, p := range parts {
		if p.PartNumber < 1 || p.PartNumber > r2.MaxPartNumber || i > 0 && p.PartNumber <= parts[i-1].PartNumber {
			return nil, fmt.Errorf("r2central %s %q: part %d of the list has number %d, want ascending numbers in 1..%d: %w",
				op, u.key, i+1, p.PartNumber, r2.MaxPartNumber, worker.ErrInvalidPart)
		}
		completed[i] = types.CompletedPart{PartNumber: aws.Int32(int32(p.PartNumber)), ETag: aws.String(r2.QuoteETag(p.ETag))}
	}
	if err := u.check(ctx, op); err != nil {
		return nil, err
	}
	cctx, cancel := u.b.call(ctx)
	defer cancel()
	out, err := u.b.api.CompleteMultipartUpload(cctx, &s3.CompleteMultipartUploadInput{
		Bucket:          &u.b.bucket,
		Key:             &u.k,
		UploadId:        &u.id,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: completed},
	}, noRetry)
	if err != nil {
		return nil, fail(op, u.key, ctx, cctx, err)
	}
	etag, _ := r2.UnquoteETag(aws.ToString(out.ETag))
	o, err := u.b.head(ctx, u.key, u.k)
	if err == nil && o.ETag == etag {
		return o, nil
	}
	return &worker.R2Object{
		Key:      u.key,
		ETag:     etag,
		HTTPETag: r2.QuoteETag(etag),
		Uploaded: u.b.serverTime(out.ResultMetadata),
	}, nil
}

// Abort implements worker.R2MultipartUpload.
func (u *upload) Abort(ctx context.Context) error {
	const op = "abort multipart upload"
	if u.keyErr != nil {
		return fmt.Errorf("r2central %s: %w", op, u.keyErr)
	}
	cctx, cancel := u.b.call(ctx)
	defer cancel()
	_, err := u.b.api.AbortMultipartUpload(cctx, &s3.AbortMultipartUploadInput{
		Bucket: &u.b.bucket, Key: &u.k, UploadId: &u.id,
	})
	if err != nil {
		return fail(op, u.key, ctx, cctx, err)
	}
	return nil
}

// check returns an error wrapping worker.ErrNoSuchUpload unless the upload
// is open.
func (u *upload) check(ctx context.Context, op string) error {
	cctx, cancel := u.b.call(ctx)
	defer cancel()
	_, err := u.b.api.ListParts(cctx, &s3.ListPartsInput{
		Bucket: &u.b.bucket, Key: &u.k, UploadId: &u.id, MaxParts: aws.Int32(1),
	})
	if err != nil {
		return fail(op, u.key, ctx, cctx, err)
	}
	return nil
}
