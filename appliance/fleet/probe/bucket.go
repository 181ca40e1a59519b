package probe

import (
	"context"
	"errors"
	"fmt"

	"github.com/dwk/fleet/appliance/fleet/marker"
	"github.com/dwk/fleet/appliance/fleet/markerstore"
)

// checkBucket requires the bucket to exist and be usable.
func (p *prober) checkBucket(ctx context.Context) (string, error) {
	start := p.cfg.Now()
	err := markerstore.BucketExists(ctx, p.cfg.S3, p.cfg.Bucket)
	took := p.cfg.Now().Sub(start)
	if err != nil {
		return "", p.s3Failed(err)
	}
	p.report.BucketLatency = took
	return fmt.Sprintf("bucket '%s' at %s answered in %s", p.cfg.Bucket, p.cfg.s3Where(), ms(took)), nil
}

// s3Failed is the refusal for an S3 failure.
func (p *prober) s3Failed(err error) *Error {
	b, at := p.cfg.Bucket, p.cfg.s3Where()
	switch {
	case errors.Is(err, markerstore.ErrNoBucket):
		return fail(markerstore.ErrNoBucket, err, "run terraform apply (dwk_bucket) to create it, or fix storage.s3.bucket",
			"bucket '%s' does not exist in %s", b, at)
	case errors.Is(err, markerstore.ErrAccessDenied):
		return fail(markerstore.ErrAccessDenied, err,
			"check storage.s3.access_key, storage.s3.secret_key and the key's permissions on the bucket",
			"%s denied access to bucket '%s'", at, b)
	case errors.Is(err, markerstore.ErrS3Unavailable) || errors.Is(err, context.DeadlineExceeded):
		return fail(ErrUnreachable, err, "check storage.s3.endpoint and that the S3 service is running",
			"%s is unreachable (%v)", at, err)
	}
	return fail(ErrUnexpected, err, "check storage.s3 and the S3 service's log",
		"%s answered with an error for bucket '%s' (%v)", at, b, err)
}

// checkBucketMarker requires the bucket's marker object to come from the
// same provisioning as the coordination store's marker.
func (p *prober) checkBucketMarker(ctx context.Context) (string, error) {
	db := p.report.Marker
	bm, err := markerstore.ReadBucket(ctx, p.cfg.S3, p.cfg.Bucket)
	switch {
	case err == nil:
	case errors.Is(err, marker.ErrMissing):
		return "", fail(marker.ErrMissing, err,
			fmt.Sprintf("point storage.s3.bucket at fleet '%s''s bucket, or run terraform apply (dwk_mode_marker) to write the marker", p.cfg.Fleet),
			"bucket '%s' holds no mode marker object (%s)", p.cfg.Bucket, marker.BucketKey)
	case errors.Is(err, marker.ErrCorrupt):
		return "", fail(marker.ErrCorrupt, err, "run terraform apply (dwk_mode_marker) to rewrite it",
			"the mode marker object %s in bucket '%s' is unreadable (%v)", marker.BucketKey, p.cfg.Bucket, err)
	default:
		return "", p.s3Failed(err)
	}
	if err := marker.Same(db, bm); err != nil {
		return "", fail(marker.ErrMismatch, nil,
			fmt.Sprintf("point storage.s3.bucket at fleet '%s''s bucket, or run terraform apply (dwk_mode_marker) to rewrite both copies", p.cfg.Fleet),
			"the mode marker in bucket '%s' (fleet '%s', id %s) does not match the one in %s (fleet '%s', id %s)",
			p.cfg.Bucket, bm.Fleet, bm.ID, p.cfg.where(), db.Fleet, db.ID)
	}
	return fmt.Sprintf("bucket '%s' holds the marker of id %s", p.cfg.Bucket, bm.ID), nil
}
