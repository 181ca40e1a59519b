package r2central

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/dwk/fleet/appliance/bindings/r2"
	"github.com/dwk/fleet/appliance/worker"
)

// Cursors are opaque to callers; inside, the first byte says what follows.
const (
	// cursorToken is followed by S3's continuation token.
	cursorToken = "t"
	// cursorAfter is followed by base64url of an R2 key to list after.
	cursorAfter = "k"
)

// afterGroup sorts after every key that starts with a delimited prefix:
// the highest code point, which UTF-8 keys do not use in practice. (The
// local backend uses the byte 0xff, but S3 wants valid UTF-8.)
const afterGroup = "\U0010FFFF"

// List implements worker.R2Bucket with ListObjectsV2 under the key prefix:
// keys in byte order after StartAfter and the cursor, a delimited prefix
// counting against Limit like an object (as S3's max-keys counts common
// prefixes), and Truncated only when more follow. Listed objects carry Key,
// Size, ETag and Uploaded; S3 lists no metadata, so Version, HTTPMetadata,
// CustomMetadata and Checksums are empty (Head has them).
//
// When StartAfter lies inside a delimited prefix (StartAfter "a/1" with
// delimiter "/"), the prefix ("a/") is listed when keys after StartAfter
// roll up into it, as in S3 and R2. Some stores (versitygw) drop it, so
// List asks for that prefix itself with one more request.
func (b *Bucket) List(ctx context.Context, opts *worker.R2ListOptions) (*worker.R2Objects, error) {
	if opts == nil {
		opts = &worker.R2ListOptions{}
	}
	limit, err := r2.ListLimit(opts.Limit)
	if err != nil {
		return nil, fmt.Errorf("r2central list: %w", err)
	}
	q := listQuery{prefix: opts.Prefix, delim: opts.Delimiter, after: opts.StartAfter, limit: limit}
	if opts.Cursor != "" {
		if err := q.setCursor(opts.Cursor); err != nil {
			return nil, fmt.Errorf("r2central list: %w", err)
		}
	}
	page := &worker.R2Objects{}
	if group := q.enclosingGroup(); group != "" {
		// Is anything in the group left to list?
		rest, err := b.listObjects(ctx, listQuery{prefix: group, after: q.after, limit: 1})
		if err != nil {
			return nil, err
		}
		q.after = group + afterGroup
		if len(rest.Contents) > 0 {
			page.DelimitedPrefixes = append(page.DelimitedPrefixes, group)
			q.limit--
		}
	}
	if q.limit == 0 {
		// The group filled the page; one more key says whether more follow.
		q.limit = 1
		more, err := b.listObjects(ctx, q)
		if err != nil {
			return nil, err
		}
		if len(more.Contents)+len(more.CommonPrefixes) > 0 {
			page.Truncated = true
			page.Cursor = cursorAfter + base64.RawURLEncoding.EncodeToString([]byte(q.after))
		}
		return page, nil
	}
	out, err := b.listObjects(ctx, q)
	if err != nil {
		return nil, err
	}
	page.Objects = make([]worker.R2Object, 0, len(out.Contents))
	for _, c := range out.Contents {
		etag, _ := r2.UnquoteETag(aws.ToString(c.ETag))
		page.Objects = append(page.Objects, worker.R2Object{
			Key:      b.r2Key(aws.ToString(c.Key)),
			Size:     aws.ToInt64(c.Size),
			ETag:     etag,
			HTTPETag: r2.QuoteETag(etag),
			Uploaded: uploaded(c.LastModified),
		})
	}
	for _, p := range out.CommonPrefixes {
		page.DelimitedPrefixes = append(page.DelimitedPrefixes, b.r2Key(aws.ToString(p.Prefix)))
	}
	if aws.ToBool(out.IsTruncated) {
		token := aws.ToString(out.NextContinuationToken)
		if token == "" {
			return nil, fmt.Errorf("r2central list: the store says the page is truncated but gave no continuation token")
		}
		page.Truncated = true
		page.Cursor = cursorToken + token
	}
	return page, nil
}

// listQuery is one ListObjectsV2 request in R2 terms.
type listQuery struct {
	prefix, delim string
	after         string // R2 key to list after
	token         string // S3 continuation token; overrides after
	limit         int
}

// setCursor continues a listing from the cursor of its previous page.
func (q *listQuery) setCursor(c string) error {
	kind, rest := c[:1], c[1:]
	switch kind {
	case cursorToken:
		q.token = rest
		return nil
	case cursorAfter:
		after, err := base64.RawURLEncoding.DecodeString(rest)
		if err != nil {
			return fmt.Errorf("invalid cursor %q: %w", c, err)
		}
		q.after = max(q.after, string(after))
		return nil
	}
	return fmt.Errorf("invalid cursor %q", c)
}

// enclosingGroup returns the delimited prefix that q.after lies inside, when
// the store is about to list after a key within it, or "".
func (q *listQuery) enclosingGroup() string {
	if q.token != "" || q.delim == "" || !strings.HasPrefix(q.after, q.prefix) {
		return ""
	}
	rest := q.after[len(q.prefix):]
	i := strings.Index(rest, q.delim)
	if i < 0 {
		return ""
	}
	return q.prefix + rest[:i+len(q.delim)]
}

// listObjects sends q to the store, under the key prefix.
func (b *Bucket) listObjects(ctx context.Context, q listQuery) (*s3.ListObjectsV2Output, error) {
	in := &s3.ListObjectsV2Input{
		Bucket:  &b.bucket,
		Prefix:  aws.String(b.prefix + q.prefix),
		MaxKeys: aws.Int32(int32(q.limit)),
	}
	if q.delim != "" {
		in.Delimiter = aws.String(q.delim)
	}
	if q.after != "" {
		in.StartAfter = aws.String(b.prefix + q.after)
	}
	if q.token != "" {
		in.ContinuationToken = aws.String(q.token)
	}
	cctx, cancel := b.call(ctx)
	defer cancel()
	out, err := b.api.ListObjectsV2(cctx, in)
	if err != nil {
		return nil, fail("list", "", ctx, cctx, err)
	}
	return out, nil
}
