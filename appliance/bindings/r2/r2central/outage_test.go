package r2central_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/r2/r2central"
	"github.com/dwk/fleet/test/s3server"
)

// TestStoreOutage stops the store, checks that operations fail with a typed
// error within their deadline, and that the same Bucket works again once
// the store is back.
func TestStoreOutage(t *testing.T) {
	srv := s3server.Start(t)
	if srv.External() {
		t.Skip("needs the local gateway, which it stops")
	}
	const timeout = 3 * time.Second
	b, err := r2central.Open(t.Context(), r2central.Config{
		Endpoint: srv.Endpoint, Region: srv.Region, Bucket: srv.NewBucket(t),
		AccessKey: srv.AccessKey, SecretKey: srv.SecretKey, PathStyle: true,
		Timeout: timeout,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if _, err := b.Put(ctx, "k", strings.NewReader("before"), nil); err != nil {
		t.Fatalf("Put: %v", err)
	}

	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = b.Get(ctx, "k", nil)
	if !errors.Is(err, r2central.ErrUnavailable) {
		t.Errorf("Get while the store is down: err = %v, want ErrUnavailable", err)
	}
	var ue *r2central.UnavailableError
	if !errors.As(err, &ue) || ue.Op != "get" || ue.Key != "k" {
		t.Errorf("Get while the store is down: err = %#v, want an *UnavailableError for get %q", err, "k")
	}
	if took := time.Since(start); took > timeout {
		t.Errorf("Get took %v while the store was down, deadline %v", took, timeout)
	}

	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	o, err := b.Head(ctx, "k")
	if err != nil {
		t.Fatalf("Head after the store came back: %v", err)
	}
	if o.Size != int64(len("before")) {
		t.Errorf("Head after restart: Size = %d, want %d", o.Size, len("before"))
	}
}
