package probe

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/dwk/fleet/appliance/fleet/marker"
	"github.com/dwk/fleet/appliance/fleet/markerstore"
	"github.com/dwk/fleet/appliance/fleet/namespaces"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/test/storetest"
)

const adminKey = "probe-test-admin-key"

// env is one libSQL server (with an admin key) and one S3 service shared
// by the cases of a test; each case uses a fleet of its own.
type env struct {
	lib *storetest.LibSQL
	s3  *storetest.S3
}

func newEnv(t *testing.T) *env {
	return &env{lib: storetest.StartLibSQL(t, adminKey), s3: storetest.StartS3(t)}
}

// stores says how to provision a fleet's stores for a case.
type stores struct {
	namespace bool           // create the coordination namespace
	coord     *marker.Marker // marker written to the coordination store
	bucket    bool           // create the bucket
	object    *marker.Marker // marker object written to the bucket
}

// provisioned is a fleet provisioned as Terraform does it.
func provisioned(m marker.Marker) stores {
	return stores{namespace: true, coord: &m, bucket: true, object: &m}
}

// provision sets up fleet's stores and returns the bucket name.
func (e *env) provision(t *testing.T, fleet string, s stores) string {
	t.Helper()
	ctx := storetest.Context(t)
	if s.namespace {
		st := e.lib.Coord(t, namespaces.Coord(fleet))
		if s.coord != nil {
			// Raw, so that markers Write refuses (local mode) can be stored.
			if _, err := st.Atomic().Set(markerstore.Key(), s.coord.Encode(), 0).Commit(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	bucket := "dwk-probe-missing-" + fleet
	if s.bucket {
		bucket = e.s3.NewBucket(t)
		if s.object != nil {
			// Raw too, for the same reason.
			_, err := e.s3.Client.PutObject(ctx, &s3.PutObjectInput{
				Bucket: aws.String(bucket), Key: aws.String(marker.BucketKey), Body: bytes.NewReader(s.object.Encode()),
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	return bucket
}

// config is the probe configuration of a replica of fleet.
func (e *env) config(t *testing.T, fleet, bucket string) Config {
	t.Helper()
	admin, err := libsqladmin.New(libsqladmin.Config{URL: e.lib.AdminURL, AdminKey: adminKey})
	if err != nil {
		t.Fatal(err)
	}
	return Config{
		Fleet:     fleet,
		Version:   "v-test",
		LibSQL:    e.lib.Client(t, namespaces.Coord(fleet)),
		LibSQLURL: e.lib.URL,
		Admin:     admin, AdminURL: e.lib.AdminURL,
		S3: e.s3.Client, Bucket: bucket, S3Endpoint: e.s3.Endpoint,
	}
}

// TestRefusals provisions one fleet per case, each with one thing wrong,
// and checks which probe refuses it and with which words.
func TestRefusals(t *testing.T) {
	e := newEnv(t)
	other := marker.New("staging", 1, "test")
	local := marker.New("localmode", 1, "test")
	local.Mode = "local"
	newer := marker.New("newer", 2, "test")
	mismatchDB, mismatchBucket := marker.New("mismatch", 1, "test"), marker.New("mismatch", 1, "test")
	nomarker := marker.New("nomarker", 1, "test")

	tests := []struct {
		name   string
		fleet  string
		stores stores
		modify func(*Config)
		check  string
		is     error
		want   string // exact message; {libsql}, {admin}, {s3}, {bucket} and ids are substituted
		match  string // or a regular expression, for messages with measured values
	}{
		{
			name: "store not provisioned", fleet: "prod", stores: stores{bucket: true},
			check: CheckMarker, is: marker.ErrMissing,
			want: "no mode marker for fleet 'prod' in libSQL namespace dwk-coord-prod: run terraform apply (dwk_mode_marker) to provision the fleet",
		},
		{
			name: "empty coordination database", fleet: "empty", stores: stores{namespace: true, bucket: true},
			check: CheckMarker, is: marker.ErrMissing,
			want: "no mode marker for fleet 'empty' in libSQL namespace dwk-coord-empty: run terraform apply (dwk_mode_marker) to provision the fleet",
		},
		{
			name: "marker of another fleet", fleet: "other", stores: provisioned(other),
			check: CheckFleet, is: marker.ErrOtherFleet,
			want: "the mode marker in libSQL namespace dwk-coord-other belongs to fleet 'staging', not 'other': point storage.libsql at fleet 'other''s stores, or set fleet.name to 'staging'",
		},
		{
			name: "local-mode marker", fleet: "localmode", stores: provisioned(local),
			check: CheckFleet, is: marker.ErrWrongMode,
			want: "the mode marker in libSQL namespace dwk-coord-localmode is for mode 'local', but this replica runs central mode: point storage at central stores provisioned with terraform apply (dwk_mode_marker); local and central data are never mixed",
		},
		{
			name: "newer schema", fleet: "newer", stores: provisioned(newer),
			check: CheckSchema, is: marker.ErrSchemaNewer,
			want: "the stores of fleet 'newer' use schema 2, but this dwk (v-test) understands schemas up to 1: upgrade dwk on this host to a version that understands schema 2",
		},
		{
			name: "bucket missing", fleet: "nobucket", stores: stores{namespace: true, coord: &marker.Marker{Fleet: "nobucket", Mode: marker.Mode, Schema: 1, ID: "x"}},
			check: CheckBucket, is: markerstore.ErrNoBucket,
			want: "bucket 'dwk-probe-missing-nobucket' does not exist in S3 at {s3}: run terraform apply (dwk_bucket) to create it, or fix storage.s3.bucket",
		},
		{
			name: "bucket without marker", fleet: "nomarker", stores: stores{namespace: true, coord: &nomarker, bucket: true},
			check: CheckBucketMarker, is: marker.ErrMissing,
			want: "bucket '{bucket}' holds no mode marker object (dwk/marker.json): point storage.s3.bucket at fleet 'nomarker''s bucket, or run terraform apply (dwk_mode_marker) to write the marker",
		},
		{
			name: "marker mismatch", fleet: "mismatch", stores: stores{namespace: true, coord: &mismatchDB, bucket: true, object: &mismatchBucket},
			check: CheckBucketMarker, is: marker.ErrMismatch,
			want: "the mode marker in bucket '{bucket}' (fleet 'mismatch', id " + mismatchBucket.ID + ") does not match the one in libSQL namespace dwk-coord-mismatch (fleet 'mismatch', id " + mismatchDB.ID + "): point storage.s3.bucket at fleet 'mismatch''s bucket, or run terraform apply (dwk_mode_marker) to rewrite both copies",
		},
		{
			name: "wrong admin token", fleet: "admintoken", stores: provisioned(marker.New("admintoken", 1, "test")),
			modify: func(c *Config) {
				c.Admin, _ = libsqladmin.New(libsqladmin.Config{URL: c.AdminURL, AdminKey: "wrong"})
			},
			check: CheckLibSQLAdmin, is: ErrUnauthorized,
			want: "libSQL admin API at {admin} rejected storage.libsql.admin_token: set storage.libsql.admin_token to the server's admin key (sqld --admin-auth-key)",
		},
		{
			name: "wrong S3 secret", fleet: "s3secret", stores: provisioned(marker.New("s3secret", 1, "test")),
			modify: func(c *Config) { c.S3 = storetest.S3Client(t, e.s3.Server, e.s3.AccessKey, "wrong") },
			check:  CheckBucket, is: markerstore.ErrAccessDenied,
			want: "S3 at {s3} denied access to bucket '{bucket}': check storage.s3.access_key, storage.s3.secret_key and the key's permissions on the bucket",
		},
		{
			name: "clock ahead", fleet: "clock", stores: provisioned(marker.New("clock", 1, "test")),
			modify: func(c *Config) { c.Now = func() time.Time { return time.Now().Add(5 * time.Second) } },
			check:  CheckClock, is: ErrClockSkew,
			match: `^this host's clock is 5(\.\d+)?s ahead of the libSQL server's \(at most 2s allowed\): synchronise the clocks of this host and the libSQL server \(NTP: chrony or systemd-timesyncd\)$`,
		},
		{
			name: "clock behind beyond a tighter bound", fleet: "clockbehind", stores: provisioned(marker.New("clockbehind", 1, "test")),
			modify: func(c *Config) {
				c.Now = func() time.Time { return time.Now().Add(-time.Second) }
				c.MaxClockSkew = 500 * time.Millisecond
			},
			check: CheckClock, is: ErrClockSkew,
			match: `^this host's clock is (9\d\dms|1(\.\d+)?s) behind the libSQL server's \(at most 500ms allowed\)`,
		},
		{
			name: "libSQL unreachable", fleet: "down", stores: stores{},
			modify: func(c *Config) {
				c.LibSQLURL = "http://127.0.0.1:1"
				c.LibSQL, _ = hranaclient.New(hranaclient.Config{URL: c.LibSQLURL, Namespace: "dwk-coord-down", MaxAttempts: 1})
			},
			check: CheckLibSQL, is: ErrUnreachable,
			match: `^libSQL at http://127\.0\.0\.1:1 is unreachable \(.*connection refused.*\): check storage\.libsql\.url and that the libSQL server is running$`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bucket := e.provision(t, tt.fleet, tt.stores)
			cfg := e.config(t, tt.fleet, bucket)
			if tt.modify != nil {
				tt.modify(&cfg)
			}
			report, err := Run(storetest.Context(t), cfg)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("Run = %v, want an *Error from check %s", err, tt.check)
			}
			if pe.Check != tt.check || !errors.Is(err, tt.is) {
				t.Errorf("failed check %s (%v), want %s wrapping %v", pe.Check, err, tt.check, tt.is)
			}
			got := err.Error()
			if tt.want != "" {
				want := strings.NewReplacer("{libsql}", e.lib.URL, "{admin}", e.lib.AdminURL, "{s3}", e.s3.Endpoint, "{bucket}", bucket).Replace(tt.want)
				if got != want {
					t.Errorf("message:\n got %s\nwant %s", got, want)
				}
			} else if !regexp.MustCompile(tt.match).MatchString(got) {
				t.Errorf("message:\n got %s\nwant match %s", got, tt.match)
			}
			// Serve mode stops at the first failure.
			failedAt := -1
			for i, r := range report.Results {
				switch {
				case r.Check == tt.check:
					failedAt = i
					if r.Status != Failed {
						t.Errorf("result of %s = %s", r.Check, r.Status)
					}
				case failedAt >= 0 && r.Status != Skipped:
					t.Errorf("check %s ran after %s failed", r.Check, tt.check)
				case failedAt < 0 && r.Status == Failed:
					t.Errorf("check %s failed before %s", r.Check, tt.check)
				}
			}
		})
	}
}

// TestAuthTokenRejected points the probe at a server that refuses every
// token, as sqld does with a wrong JWT.
func TestAuthTokenRejected(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error":"Unauthorized: The JWT is invalid"}`))
	}))
	defer srv.Close()
	c, err := hranaclient.New(hranaclient.Config{URL: srv.URL, AuthToken: "bad", Namespace: "dwk-coord-prod"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), Config{Fleet: "prod", LibSQL: c, LibSQLURL: srv.URL, S3: fakeS3{}, Bucket: "b"})
	want := "libSQL at " + srv.URL + " rejected storage.libsql.auth_token (Unauthorized: The JWT is invalid): set storage.libsql.auth_token to a token this server accepts"
	if err == nil || err.Error() != want || !errors.Is(err, ErrUnauthorized) {
		t.Errorf("Run = %v\nwant %s", err, want)
	}
}

// fakeS3 is never called: the tests that use it fail before the bucket.
type fakeS3 struct{ markerstore.S3API }

func TestPassesAndDiagnoses(t *testing.T) {
	e := newEnv(t)
	m := marker.New("good", 1, "terraform-provider-dwk test")
	bucket := e.provision(t, "good", provisioned(m))
	cfg := e.config(t, "good", bucket)
	cfg.Diagnose = true
	report, err := Run(storetest.Context(t), cfg)
	if err != nil {
		t.Fatalf("Run on good stores = %v", err)
	}
	want := []string{CheckLibSQL, CheckLibSQLAdmin, CheckMarker, CheckFleet, CheckSchema, CheckBucket, CheckBucketMarker, CheckClock, CheckCAS}
	if len(report.Results) != len(want) {
		t.Fatalf("%d results, want %d", len(report.Results), len(want))
	}
	for i, r := range report.Results {
		if r.Check != want[i] || r.Status != Passed || r.Detail == "" {
			t.Errorf("result %d = %+v, want %s passed with a detail", i, r, want[i])
		}
	}
	if report.Marker != m {
		t.Errorf("Marker = %+v, want %+v", report.Marker, m)
	}
	if report.LibSQLLatency <= 0 || report.BucketLatency <= 0 || report.CASLatency <= 0 || abs(report.ClockSkew) > 100*time.Millisecond {
		t.Errorf("measurements: libsql %s, bucket %s, cas %s, skew %s", report.LibSQLLatency, report.BucketLatency, report.CASLatency, report.ClockSkew)
	}
	var out bytes.Buffer
	if _, err := report.WriteTo(&out); err != nil {
		t.Fatal(err)
	}
	t.Logf("dwk diagnose would print:\n%s", out.String())
	for _, c := range want {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(c) + ` +ok +`).MatchString(out.String()) {
			t.Errorf("report has no passing line for %s", c)
		}
	}

	// Without an admin URL the admin check is skipped, not failed.
	cfg.Admin, cfg.Diagnose = nil, false
	report, err = Run(storetest.Context(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := report.Result(CheckLibSQLAdmin); r.Status != Skipped {
		t.Errorf("admin check without admin URL: %+v", r)
	}
	if _, ok := report.Result(CheckCAS); ok {
		t.Error("cas ran outside diagnose mode")
	}
}

// TestDiagnoseKeepsGoing checks that diagnose mode runs every check whose
// prerequisites passed, and reports every failure.
func TestDiagnoseKeepsGoing(t *testing.T) {
	e := newEnv(t)
	m := marker.New("diag", 2, "test")
	bucket := e.provision(t, "diag", stores{namespace: true, coord: &m})
	cfg := e.config(t, "diag", bucket)
	cfg.Diagnose = true
	report, err := Run(storetest.Context(t), cfg)
	if !errors.Is(err, marker.ErrSchemaNewer) {
		t.Fatalf("Run = %v, want the schema failure first", err)
	}
	want := map[string]Status{
		CheckLibSQL: Passed, CheckLibSQLAdmin: Passed, CheckMarker: Passed, CheckFleet: Passed,
		CheckSchema: Failed, CheckBucket: Failed, CheckBucketMarker: Skipped, CheckClock: Passed, CheckCAS: Passed,
	}
	for _, r := range report.Results {
		if r.Status != want[r.Check] {
			t.Errorf("%s: %s (%s), want %s", r.Check, r.Status, r.Detail, want[r.Check])
		}
	}
	if fs := report.Failures(); len(fs) != 2 || !errors.Is(fs[1], markerstore.ErrNoBucket) {
		t.Errorf("Failures = %v, want schema and bucket", fs)
	}

	// An unprovisioned fleet: the checks that need the coordination
	// database say why they did not run.
	cfg = e.config(t, "void", e.provision(t, "void", stores{bucket: true}))
	cfg.Diagnose = true
	report, _ = Run(storetest.Context(t), cfg)
	for _, c := range []string{CheckClock, CheckCAS} {
		if r, _ := report.Result(c); r.Status != Skipped || !strings.Contains(r.Detail, "not provisioned") {
			t.Errorf("%s on an unprovisioned fleet: %+v", c, r)
		}
	}
}

func TestConfigRequired(t *testing.T) {
	if _, err := Run(context.Background(), Config{Fleet: "x"}); !errors.Is(err, ErrConfig) {
		t.Errorf("Run without clients = %v, want ErrConfig", err)
	}
}
