package central_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/central"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/marker"
	"github.com/dwk/fleet/appliance/fleet/markerstore"
	"github.com/dwk/fleet/appliance/fleet/probe"
	"github.com/dwk/fleet/appliance/process/buildinfo"
	"github.com/dwk/fleet/test/libsqlserver"
	"github.com/dwk/fleet/test/storetest"
)

// storesConfig is a central-mode config for a real libSQL server and S3
// service, with the admin key in the environment and the S3 secret key
// in a file.
func storesConfig(t *testing.T, ls *storetest.LibSQL, s3 *storetest.S3, bucket string) *config.Config {
	keyFile := filepath.Join(t.TempDir(), "s3-secret-key")
	if err := os.WriteFile(keyFile, []byte(s3.SecretKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{
		Fleet: config.Fleet{Name: libsqlserver.Namespace("central"), Secret: config.Literal(strings.Repeat("s", config.MinSecretLen))},
		Storage: config.Storage{
			Mode:   config.ModeCentral,
			LibSQL: &config.LibSQL{URL: ls.URL, AdminURL: ls.AdminURL, AuthToken: config.Literal(ls.AuthToken)},
			S3: &config.S3{
				Endpoint: s3.Endpoint, Region: s3.Region, Bucket: bucket, PathStyle: s3.PathStyle,
				AccessKey: config.Literal(s3.AccessKey), SecretKey: &config.Secret{File: keyFile},
			},
		},
	}
	if ls.AdminKey != "" {
		t.Setenv("DWK_CENTRAL_TEST_ADMIN_KEY", ls.AdminKey)
		cfg.Storage.LibSQL.AdminToken = &config.Secret{Env: "DWK_CENTRAL_TEST_ADMIN_KEY"}
	}
	return cfg
}

// TestDialReachesStores provisions a fleet with the clients Dial builds,
// as dwk provision does, and runs the start-up probes with them, as dwk
// serve and dwk diagnose do. The libSQL server requires its admin key and
// the S3 service checks signatures, so both secrets must arrive resolved.
func TestDialReachesStores(t *testing.T) {
	ls := storetest.StartLibSQL(t, "central-test-admin-key")
	s3 := storetest.StartS3(t)
	cfg := storesConfig(t, ls, s3, s3.NewBucket(t))
	ctx := storetest.Context(t)

	var trips atomic.Int64
	c, err := central.Dial(ctx, cfg, central.Options{OnCoordRoundTrip: func() { trips.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ns := c.Coord.Namespace()
	if err := c.Admin.Create(ctx, ns); err != nil {
		t.Fatalf("create %s with the admin client: %v", ns, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := ls.Admin.Delete(ctx, ns); err != nil {
			t.Errorf("delete namespace %s: %v", ns, err)
		}
	})
	st, err := coord.Open(ctx, c.Coord, coord.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(context.Background())
	m := marker.New(c.Fleet, buildinfo.SchemaVersion, "central test")
	if err := markerstore.Write(ctx, st, c.S3, c.S3Config.Bucket, m); err != nil {
		t.Fatal(err)
	}

	if _, err := probe.Run(ctx, c.Probe()); err != nil {
		t.Fatalf("start-up probes: %v", err)
	}
	if trips.Load() == 0 {
		t.Error("OnCoordRoundTrip was never called")
	}
	c.Close()
	if _, err := probe.Run(ctx, c.Probe()); err != nil {
		t.Fatalf("start-up probes after Close: %v", err)
	}
}
