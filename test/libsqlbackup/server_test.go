package libsqlbackup

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/test/procs"
	"github.com/dwk/fleet/test/s3server"
)

// bucketEnv is a backup destination: the gateway, bucket and prefix.
type bucketEnv struct {
	s3             *s3server.Server
	bucket, prefix string
}

func newBucket(t testing.TB) bucketEnv {
	t.Helper()
	s := s3server.Start(t)
	b, p := s.NewPrefix(t)
	return bucketEnv{s3: s, bucket: b, prefix: p}
}

// args are the --backup-s3-* flags; the secret key goes in env().
func (b bucketEnv) args() []string {
	a := []string{"--backup-s3-endpoint", b.s3.Endpoint, "--backup-s3-bucket", b.bucket, "--backup-s3-prefix", b.prefix,
		"--backup-s3-region", b.s3.Region, "--backup-s3-access-key", b.s3.AccessKey}
	if b.s3.PathStyle {
		a = append(a, "--backup-s3-path-style")
	}
	return a
}

func (b bucketEnv) env() []string { return []string{"DWK_BACKUP_S3_SECRET_KEY=" + b.s3.SecretKey} }

// server is a running dwk libsql with a backup.
type server struct {
	proc     *procs.Proc
	url      string
	adminURL string
	hc       *hranaclient.Client
	admin    *libsqladmin.Client
}

var (
	hranaRE = regexp.MustCompile(`serving Hrana on (http://\S+)`)
	adminRE = regexp.MustCompile(`admin API on (http://\S+)`)
)

// startServer runs dwk libsql on dir with the backup to b.
func startServer(t testing.TB, b bucketEnv, dir string, extra ...string) *server {
	t.Helper()
	return startProc(t, b.env(), append(append([]string{"--db-path", dir}, b.args()...), extra...))
}

// startUnbacked runs dwk libsql on dir without a backup, to look at a
// restored data dir without adding to the backup it came from.
func startUnbacked(t testing.TB, dir string) *server {
	t.Helper()
	return startProc(t, nil, []string{"--db-path", dir})
}

func startProc(t testing.TB, env, extra []string) *server {
	t.Helper()
	args := append([]string{"libsql", "--http-listen-addr", "127.0.0.1:0", "--admin-listen-addr", "127.0.0.1:0"}, extra...)
	p := procs.Start(t, "dwk libsql", procs.Binary(t), env, args...)
	s := &server{proc: p}
	s.url = p.WaitFor(hranaRE, 60*time.Second)[1]
	s.adminURL = p.WaitFor(adminRE, 10*time.Second)[1]
	var err error
	if s.hc, err = hranaclient.New(hranaclient.Config{URL: s.url, Timeout: 10 * time.Second}); err != nil {
		t.Fatal(err)
	}
	if s.admin, err = libsqladmin.New(libsqladmin.Config{URL: s.adminURL}); err != nil {
		t.Fatal(err)
	}
	return s
}

// exec runs one statement in namespace ns.
func (s *server) exec(ctx context.Context, ns, sql string, args ...hrana.Value) (hrana.StmtResult, error) {
	return s.hc.WithNamespace(ns).Execute(ctx, hrana.NewStmt(sql, args...))
}

// ints returns the first column of every row of sql in ns.
func (s *server) ints(t testing.TB, ns, sql string) []int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := s.exec(ctx, ns, sql)
	if err != nil {
		t.Fatalf("%s in %s: %v", sql, ns, err)
	}
	out := make([]int64, len(res.Rows))
	for i, r := range res.Rows {
		out[i] = r[0].Int
	}
	return out
}

// metric reads one value from the admin API's /metrics (through the
// client dwk diagnose uses).
func (s *server) metric(t testing.TB, name string) float64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, err := s.admin.Metrics(ctx)
	if err != nil {
		t.Fatalf("metrics: %v", err)
	}
	v, ok := m[name]
	if !ok {
		t.Fatalf("metric %s not served", name)
	}
	return v
}

// waitShipped waits until the backup reports nothing pending.
func (s *server) waitShipped(t testing.TB, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for s.metric(t, "dwk_libsql_backup_pending_namespaces") != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("backup still pending after %s (lag %.2fs)", within, s.metric(t, "dwk_libsql_backup_lag_seconds"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// restore runs dwk libsql restore into dir with extra flags.
func restore(t *testing.T, b bucketEnv, dir string, extra ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	args := append(append([]string{"libsql", "restore", "--to", dir}, b.args()...), extra...)
	cmd := exec.CommandContext(ctx, procs.Binary(t), args...)
	cmd.Env = append(os.Environ(), b.env()...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("dwk libsql restore: %v\n%s", err, out)
	}
	return string(out), nil
}
