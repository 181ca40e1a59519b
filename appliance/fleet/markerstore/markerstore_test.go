package markerstore

import (
	"bytes"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/dwk/fleet/appliance/fleet/marker"
	"github.com/dwk/fleet/test/libsqlserver"
	"github.com/dwk/fleet/test/storetest"
)

func TestWriteReadDelete(t *testing.T) {
	ctx := storetest.Context(t)
	st := storetest.StartLibSQL(t, "").Coord(t, libsqlserver.Namespace("marker"))
	s3srv := storetest.StartS3(t)
	bucket := s3srv.NewBucket(t)

	got, err := Read(ctx, st, s3srv.Client, bucket)
	if err != nil {
		t.Fatal(err)
	}
	if got.Coord.Status != Missing || got.Bucket.Status != Missing || got.InSync() {
		t.Fatalf("Read of unprovisioned stores = %+v, want both missing", got)
	}

	m := marker.New("prod", 1, "markerstore test")
	if err := Write(ctx, st, s3srv.Client, bucket, m); err != nil {
		t.Fatal(err)
	}
	got, err = Read(ctx, st, s3srv.Client, bucket)
	if err != nil {
		t.Fatal(err)
	}
	if !got.InSync() || got.Coord.Marker != m || got.Bucket.Marker != m {
		t.Fatalf("Read after Write = %+v, want both copies of %+v", got, m)
	}

	// A second provisioning replaces both copies.
	m2 := marker.New("prod", 1, "markerstore test")
	if err := Write(ctx, st, s3srv.Client, bucket, m2); err != nil {
		t.Fatal(err)
	}
	if c, err := ReadCoord(ctx, st); err != nil || c != m2 {
		t.Errorf("ReadCoord = %+v, %v; want %+v", c, err, m2)
	}
	if b, err := ReadBucket(ctx, s3srv.Client, bucket); err != nil || b != m2 {
		t.Errorf("ReadBucket = %+v, %v; want %+v", b, err, m2)
	}

	// Drift: one copy rewritten by another provisioning, then garbage.
	if err := WriteBucket(ctx, s3srv.Client, bucket, marker.New("prod", 1, "other")); err != nil {
		t.Fatal(err)
	}
	if got, _ := Read(ctx, st, s3srv.Client, bucket); got.InSync() {
		t.Error("copies of two provisionings reported in sync")
	}
	putRaw(t, s3srv.Client, bucket, []byte("not a marker"))
	if _, err := ReadBucket(ctx, s3srv.Client, bucket); !errors.Is(err, marker.ErrCorrupt) {
		t.Errorf("ReadBucket of garbage = %v, want ErrCorrupt", err)
	}
	if got, err := Read(ctx, st, s3srv.Client, bucket); err != nil || got.Bucket.Status != Corrupt || got.InSync() {
		t.Errorf("Read with a corrupt bucket copy = %+v, %v", got, err)
	}

	if err := Delete(ctx, st, s3srv.Client, bucket); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCoord(ctx, st); !errors.Is(err, marker.ErrMissing) {
		t.Errorf("ReadCoord after Delete = %v, want ErrMissing", err)
	}
	if _, err := ReadBucket(ctx, s3srv.Client, bucket); !errors.Is(err, marker.ErrMissing) {
		t.Errorf("ReadBucket after Delete = %v, want ErrMissing", err)
	}
	if err := Delete(ctx, st, s3srv.Client, bucket); err != nil {
		t.Errorf("second Delete = %v", err)
	}
}

func TestBucketProblems(t *testing.T) {
	ctx := storetest.Context(t)
	st := storetest.StartLibSQL(t, "").Coord(t, libsqlserver.Namespace("marker"))
	s3srv := storetest.StartS3(t)
	const missing = "dwk-no-such-bucket"

	if err := BucketExists(ctx, s3srv.Client, missing); !errors.Is(err, ErrNoBucket) {
		t.Errorf("BucketExists(missing) = %v, want ErrNoBucket", err)
	}
	if _, err := ReadBucket(ctx, s3srv.Client, missing); !errors.Is(err, ErrNoBucket) {
		t.Errorf("ReadBucket(missing bucket) = %v, want ErrNoBucket", err)
	}
	if err := DeleteBucket(ctx, s3srv.Client, missing); err != nil {
		t.Errorf("DeleteBucket(missing bucket) = %v, want nil", err)
	}
	if got, err := Read(ctx, st, s3srv.Client, missing); err != nil || got.Bucket.Status != NoBucket {
		t.Errorf("Read with no bucket = %+v, %v; want status NoBucket", got, err)
	}
	if err := Write(ctx, st, s3srv.Client, missing, marker.New("prod", 1, "t")); !errors.Is(err, ErrNoBucket) {
		t.Errorf("Write to a missing bucket = %v, want ErrNoBucket", err)
	}
	if _, err := ReadCoord(ctx, st); !errors.Is(err, marker.ErrMissing) {
		t.Errorf("a failed Write left a coordination copy: %v", err)
	}

	bucket := s3srv.NewBucket(t)
	wrong := storetest.S3Client(t, s3srv.Server, s3srv.AccessKey, "wrong-secret")
	if err := BucketExists(ctx, wrong, bucket); !errors.Is(err, ErrAccessDenied) {
		t.Errorf("BucketExists with a wrong secret = %v, want ErrAccessDenied", err)
	}
	if _, err := ReadBucket(ctx, wrong, bucket); !errors.Is(err, ErrAccessDenied) {
		t.Errorf("ReadBucket with a wrong secret = %v, want ErrAccessDenied", err)
	}

	for _, m := range []marker.Marker{{}, {Fleet: "prod", ID: "x", Mode: "local"}, {Fleet: "prod", Mode: marker.Mode}} {
		if err := Write(ctx, st, s3srv.Client, bucket, m); !errors.Is(err, ErrInvalidMarker) {
			t.Errorf("Write(%+v) = %v, want ErrInvalidMarker", m, err)
		}
	}
}

func putRaw(t *testing.T, c *s3.Client, bucket string, body []byte) {
	t.Helper()
	_, err := c.PutObject(storetest.Context(t), &s3.PutObjectInput{
		Bucket: aws.String(bucket), Key: aws.String(marker.BucketKey), Body: bytes.NewReader(body),
	})
	if err != nil {
		t.Fatal(err)
	}
}
