package markerstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/dwk/fleet/appliance/fleet/marker"
)

// maxObjectSize bounds the marker object read; a marker is a few hundred
// bytes.
const maxObjectSize = 64 << 10

// BucketExists checks that bucket exists and the credentials may use it
// (one HEAD request): nil, or an error wrapping ErrNoBucket,
// ErrAccessDenied or ErrS3Unavailable.
func BucketExists(ctx context.Context, c S3API, bucket string) error {
	if _, err := c.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String(bucket)}); err != nil {
		return s3Error("head bucket", bucket, err)
	}
	return nil
}

// ReadBucket returns the marker object of bucket, in one request: an
// error wrapping marker.ErrMissing when the bucket has none, ErrNoBucket
// when the bucket does not exist, or marker.ErrCorrupt when it cannot be
// decoded.
func ReadBucket(ctx context.Context, c S3API, bucket string) (marker.Marker, error) {
	out, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(marker.BucketKey)})
	if err != nil {
		return marker.Marker{}, s3Error("read mode marker object", bucket, err)
	}
	defer out.Body.Close()
	b, err := io.ReadAll(io.LimitReader(out.Body, maxObjectSize+1))
	if err != nil {
		return marker.Marker{}, fmt.Errorf("read mode marker object from bucket %q: %w: %w", bucket, ErrS3Unavailable, err)
	}
	if len(b) > maxObjectSize {
		return marker.Marker{}, fmt.Errorf("read mode marker object from bucket %q: %w: larger than %d bytes", bucket, marker.ErrCorrupt, maxObjectSize)
	}
	m, err := marker.Decode(b)
	if err != nil {
		return marker.Marker{}, fmt.Errorf("read mode marker object from bucket %q: %w", bucket, err)
	}
	return m, nil
}

// WriteBucket writes m as the marker object of bucket, replacing any.
func WriteBucket(ctx context.Context, c S3API, bucket string, m marker.Marker) error {
	if err := validate(m); err != nil {
		return err
	}
	body := m.Encode()
	_, err := c.PutObject(ctx, &s3.PutObjectInput{
		Bucket:        aws.String(bucket),
		Key:           aws.String(marker.BucketKey),
		Body:          bytes.NewReader(body),
		ContentLength: aws.Int64(int64(len(body))),
		ContentType:   aws.String("application/json"),
	})
	if err != nil {
		return s3Error("write mode marker object", bucket, err)
	}
	return nil
}

// DeleteBucket removes the marker object of bucket. A missing object or a
// missing bucket is not an error: either way the bucket holds no marker.
func DeleteBucket(ctx context.Context, c S3API, bucket string) error {
	_, err := c.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(bucket), Key: aws.String(marker.BucketKey)})
	if err == nil {
		return nil
	}
	err = s3Error("delete mode marker object", bucket, err)
	if errors.Is(err, ErrNoBucket) || errors.Is(err, marker.ErrMissing) {
		return nil
	}
	return err
}

// s3Error wraps an S3 failure with the sentinel it stands for.
func s3Error(op, bucket string, err error) error {
	switch kind := classify(err); kind {
	case nil:
		return fmt.Errorf("%s in bucket %q: %w", op, bucket, err)
	case errNoKey:
		return fmt.Errorf("%s in bucket %q: %w", op, bucket, marker.ErrMissing)
	case errNotFound:
		if op == "head bucket" {
			return fmt.Errorf("%s %q: %w", op, bucket, ErrNoBucket)
		}
		return fmt.Errorf("%s in bucket %q: %w", op, bucket, marker.ErrMissing)
	case ErrNoBucket:
		return fmt.Errorf("%s in bucket %q: %w", op, bucket, ErrNoBucket)
	default:
		return fmt.Errorf("%s in bucket %q: %w: %w", op, bucket, kind, err)
	}
}
