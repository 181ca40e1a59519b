package r2central

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
)

// fakeS3 is an S3API whose HeadObject, GetObject and PutObject are
// scripted per test. The embedded nil S3API makes any other call panic, so
// a test notices calls it did not expect.
type fakeS3 struct {
	S3API
	head func(in *s3.HeadObjectInput) (*s3.HeadObjectOutput, error)
	get  func(in *s3.GetObjectInput) (*s3.GetObjectOutput, error)
	put  func(in *s3.PutObjectInput) (*s3.PutObjectOutput, error)
}

var _ S3API = (*fakeS3)(nil)

func (f *fakeS3) HeadObject(_ context.Context, in *s3.HeadObjectInput, _ ...func(*s3.Options)) (*s3.HeadObjectOutput, error) {
	return f.head(in)
}

func (f *fakeS3) GetObject(_ context.Context, in *s3.GetObjectInput, _ ...func(*s3.Options)) (*s3.GetObjectOutput, error) {
	return f.get(in)
}

func (f *fakeS3) PutObject(_ context.Context, in *s3.PutObjectInput, _ ...func(*s3.Options)) (*s3.PutObjectOutput, error) {
	return f.put(in)
}

var (
	errNotFound     = &smithy.GenericAPIError{Code: "NotFound"}
	errPrecondition = &smithy.GenericAPIError{Code: "PreconditionFailed"}
)

// stored is a HEAD answer for an object with the given version.
func stored(version string) *s3.HeadObjectOutput {
	return &s3.HeadObjectOutput{
		ETag:          aws.String(`"9dd4e461268c8034f5c8564e155c67a6"`),
		LastModified:  aws.Time(time.Unix(1700000000, 0)),
		ContentLength: aws.Int64(1),
		Metadata:      map[string]string{metaVersion: version},
	}
}

func newFakeBucket(t *testing.T, f *fakeS3) *Bucket {
	t.Helper()
	b, err := New(f, Config{Bucket: "b"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
