package r2central_test

import (
	"testing"

	"github.com/dwk/fleet/appliance/bindings/r2/r2central"
	"github.com/dwk/fleet/appliance/bindings/r2/r2test"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/s3server"
)

// open returns a Bucket on srv's bucket under prefix.
func open(t testing.TB, srv *s3server.Server, bucket, prefix string) *r2central.Bucket {
	t.Helper()
	b, err := r2central.Open(t.Context(), r2central.Config{
		Endpoint:  srv.Endpoint,
		Region:    srv.Region,
		Bucket:    bucket,
		AccessKey: srv.AccessKey,
		SecretKey: srv.SecretKey,
		PathStyle: srv.PathStyle,
		KeyPrefix: prefix,
	})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return b
}

// TestConformance runs the R2 conformance suite against a real S3 service
// (versitygw unless DWK_TEST_S3_ENDPOINT names another), each subtest in a
// bucket of its own.
func TestConformance(t *testing.T) {
	srv := s3server.Start(t)
	r2test.Run(t, func(t *testing.T) worker.R2Bucket {
		return open(t, srv, srv.NewBucket(t), "")
	})
}
