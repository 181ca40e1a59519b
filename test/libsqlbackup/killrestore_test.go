package libsqlbackup

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/test/procs"
)

// lag is the backup lag the tests run with: the default.
const lag = time.Second

// writer inserts 1, 2, 3… into table t of one namespace, one commit at a
// time, and records when each was acknowledged.
type writer struct {
	ns    string
	mu    sync.Mutex
	acked []time.Time // acked[i] is when value i+1 was acknowledged
}

func (w *writer) run(ctx context.Context, s *server) {
	for v := int64(1); ctx.Err() == nil; v++ {
		if _, err := s.exec(ctx, w.ns, "INSERT INTO t(v) VALUES (?)", hrana.Integer(v)); err != nil {
			return // the server was killed, or the test is over
		}
		w.mu.Lock()
		w.acked = append(w.acked, time.Now())
		w.mu.Unlock()
	}
}

// ackedBefore is how many values were acknowledged by t.
func (w *writer) ackedBefore(t time.Time) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for n < len(w.acked) && !w.acked[n].After(t) {
		n++
	}
	return n
}

// checkPrefix checks that ns holds exactly 1..n with n at least min.
func checkPrefix(t *testing.T, s *server, ns string, min int) int {
	t.Helper()
	got := s.ints(t, ns, "SELECT v FROM t ORDER BY v")
	for i, v := range got {
		if v != int64(i+1) {
			t.Fatalf("namespace %s: row %d is %d, want %d (restored rows must be a prefix of the commits)", ns, i, v, i+1)
		}
	}
	if len(got) < min {
		t.Errorf("namespace %s: %d rows restored, want at least %d (acknowledged more than the lag before the kill)", ns, len(got), min)
	}
	return len(got)
}

// TestKillRestoreKeepsAcknowledgedWrites writes to many namespaces under
// load (creating and deleting namespaces meanwhile), kills dwk libsql with
// SIGKILL, deletes its data dir and restores it from S3: every write
// acknowledged more than the backup lag before the kill is back, each
// namespace is a consistent prefix of its commits, and the restored
// server passes the libSQL conformance suite.
func TestKillRestoreKeepsAcknowledgedWrites(t *testing.T) {
	b := newBucket(t)
	dir := filepath.Join(t.TempDir(), "data.sqld")
	s := startServer(t, b, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	const namespaces = 12
	var writers []*writer
	for i := range namespaces {
		ns := fmt.Sprintf("load-%02d", i)
		if err := s.admin.Create(ctx, ns); err != nil {
			t.Fatal(err)
		}
		if _, err := s.exec(ctx, ns, "CREATE TABLE t(v INTEGER PRIMARY KEY)"); err != nil {
			t.Fatal(err)
		}
		writers = append(writers, &writer{ns: ns})
	}
	if err := s.admin.Create(ctx, "doomed"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.exec(ctx, "doomed", "CREATE TABLE t(v)"); err != nil {
		t.Fatal(err)
	}

	wctx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	for _, w := range writers {
		wg.Add(1)
		go func() { defer wg.Done(); w.run(wctx, s) }()
	}
	time.Sleep(1500 * time.Millisecond)
	// Namespaces come and go under load.
	if err := s.admin.Delete(ctx, "doomed"); err != nil {
		t.Fatal(err)
	}
	if err := s.admin.Create(ctx, "late"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.exec(ctx, "late", "CREATE TABLE t(v INTEGER PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	late := &writer{ns: "late"}
	writers = append(writers, late)
	wg.Add(1)
	go func() { defer wg.Done(); late.run(wctx, s) }()
	time.Sleep(2500 * time.Millisecond)

	if lagNow := s.metric(t, "dwk_libsql_backup_lag_seconds"); lagNow > lag.Seconds() {
		t.Errorf("backup lag under load is %.2fs, want at most %s", lagNow, lag)
	}
	killed := time.Now()
	s.proc.Kill()
	stop()
	wg.Wait()

	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	refuseEmptyStart(t, b, dir)
	out, err := restore(t, b, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(out)

	r := startServer(t, b, dir)
	names, err := r.admin.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"default": true}
	for _, w := range writers {
		want[w.ns] = true
	}
	if len(names) != len(want) {
		t.Errorf("restored namespaces %v, want %d: the loaded ones, late and default (doomed was deleted)", names, len(want))
	}
	total := 0
	for _, w := range writers {
		min := w.ackedBefore(killed.Add(-lag))
		got := checkPrefix(t, r, w.ns, min)
		total += got
		t.Logf("%s: %d acknowledged by kill-lag, %d in total, %d restored", w.ns, min, w.ackedBefore(killed), got)
	}
	if total == 0 {
		t.Fatal("no rows restored at all")
	}
	runConformance(t, r)
}

// runConformance runs the libSQL conformance suite (test/libsqlconformance)
// against s.
func runConformance(t *testing.T, s *server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-v", "./test/libsqlconformance")
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(os.Environ(), "DWK_TEST_LIBSQL_URL="+s.url, "DWK_TEST_LIBSQL_ADMIN_URL="+s.adminURL, "DWK_BIN="+procs.Binary(t))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("conformance suite against the restored server: %v\n%s", err, out)
	}
	var summary []string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "--- ") || strings.HasPrefix(line, "ok") {
			summary = append(summary, line)
		}
	}
	t.Logf("conformance suite against the restored server:\n%s", strings.Join(summary, "\n"))
}

// refuseEmptyStart checks that a server with the backup refuses to start
// on an empty data dir while the prefix holds a backup.
func refuseEmptyStart(t *testing.T, b bucketEnv, dir string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	args := append([]string{"libsql", "--http-listen-addr", "127.0.0.1:0", "--db-path", dir}, b.args()...)
	cmd := exec.CommandContext(ctx, procs.Binary(t), args...)
	cmd.Env = append(os.Environ(), b.env()...)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "dwk libsql restore --to") || !strings.Contains(string(out), "--backup-allow-empty") {
		t.Fatalf("server on an empty data dir over a backup: %v\n%s\nwant a refusal naming the restore command and --backup-allow-empty", err, out)
	}
}
