package r2central

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/dwk/fleet/appliance/worker"
)

// TestConditionalPutFindsOwnWrite covers a create-only Put whose first
// attempt was stored but whose answer was lost: the SDK's retry then fails
// If-None-Match, and Put must see that the stored object is its own.
func TestConditionalPutFindsOwnWrite(t *testing.T) {
	var written string // version of the write that landed
	heads := 0
	f := &fakeS3{
		head: func(*s3.HeadObjectInput) (*s3.HeadObjectOutput, error) {
			heads++
			if written == "" {
				return nil, errNotFound
			}
			return stored(written), nil
		},
		put: func(in *s3.PutObjectInput) (*s3.PutObjectOutput, error) {
			if aws.ToString(in.IfNoneMatch) != "*" {
				t.Errorf("PutObject If-None-Match = %q, want *", aws.ToString(in.IfNoneMatch))
			}
			written = in.Metadata[metaVersion] // the lost first attempt
			return nil, errPrecondition        // the retry
		},
	}
	b := newFakeBucket(t, f)
	o, err := b.Put(t.Context(), "k", strings.NewReader("x"),
		&worker.R2PutOptions{OnlyIf: &worker.R2Conditional{EtagDoesNotMatch: "*"}})
	if err != nil {
		t.Fatalf("Put: %v", err)
	}
	if o.Version != written || heads != 2 {
		t.Errorf("Put = version %q after %d HEADs, want %q after 2", o.Version, heads, written)
	}
}

// TestConditionalPutLosesRace covers a create-only Put that another writer
// beat between its HEAD and its PutObject.
func TestConditionalPutLosesRace(t *testing.T) {
	heads := 0
	f := &fakeS3{
		head: func(*s3.HeadObjectInput) (*s3.HeadObjectOutput, error) {
			heads++
			if heads == 1 {
				return nil, errNotFound
			}
			return stored("other-writer"), nil
		},
		put: func(*s3.PutObjectInput) (*s3.PutObjectOutput, error) { return nil, errPrecondition },
	}
	b := newFakeBucket(t, f)
	_, err := b.Put(t.Context(), "k", strings.NewReader("x"),
		&worker.R2PutOptions{OnlyIf: &worker.R2Conditional{EtagDoesNotMatch: "*"}})
	if !errors.Is(err, worker.ErrPreconditionFailed) {
		t.Errorf("Put: err = %v, want ErrPreconditionFailed", err)
	}
}

// TestConditionalPutRetriesChangedObject covers a Put whose condition still
// holds on the object that replaced the one it checked: it starts over and
// writes, pinned to the new ETag.
func TestConditionalPutRetriesChangedObject(t *testing.T) {
	etags := []string{`"11111111111111111111111111111111"`, `"22222222222222222222222222222222"`}
	heads, puts := 0, 0
	f := &fakeS3{
		head: func(*s3.HeadObjectInput) (*s3.HeadObjectOutput, error) {
			o := stored("v")
			o.ETag = aws.String(etags[min(heads, 1)])
			heads++
			return o, nil
		},
		put: func(in *s3.PutObjectInput) (*s3.PutObjectOutput, error) {
			puts++
			if aws.ToString(in.IfMatch) != etags[1] {
				return nil, errPrecondition
			}
			return &s3.PutObjectOutput{ETag: aws.String(`"9dd4e461268c8034f5c8564e155c67a6"`)}, nil
		},
	}
	b := newFakeBucket(t, f)
	_, err := b.Put(t.Context(), "k", strings.NewReader("x"),
		&worker.R2PutOptions{OnlyIf: &worker.R2Conditional{EtagDoesNotMatch: "0123456789abcdef0123456789abcdef"}})
	if err != nil {
		t.Fatalf("Put: %v", err)
	}
	if puts != 2 {
		t.Errorf("%d PutObject calls, want 2 (the first pinned to the replaced ETag)", puts)
	}
}
