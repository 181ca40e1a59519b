package markerstore

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// S3API is the part of the S3 API the marker needs. *s3.Client (from
// r2central.NewClient) implements it; tests may use a hand-written fake.
type S3API interface {
	HeadBucket(ctx context.Context, in *s3.HeadBucketInput, optFns ...func(*s3.Options)) (*s3.HeadBucketOutput, error)
	GetObject(ctx context.Context, in *s3.GetObjectInput, optFns ...func(*s3.Options)) (*s3.GetObjectOutput, error)
	PutObject(ctx context.Context, in *s3.PutObjectInput, optFns ...func(*s3.Options)) (*s3.PutObjectOutput, error)
	DeleteObject(ctx context.Context, in *s3.DeleteObjectInput, optFns ...func(*s3.Options)) (*s3.DeleteObjectOutput, error)
}

var _ S3API = (*s3.Client)(nil)
