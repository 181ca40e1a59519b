package libsqlbackup

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestS3OutageGrowsLagAndLosesNothing stops the S3 gateway while a
// namespace keeps committing (past the WAL length at which the backup
// would checkpoint): the lag grows, the failures show, and once S3 is back
// everything is shipped, which a restore after kill -9 proves.
func TestS3OutageGrowsLagAndLosesNothing(t *testing.T) {
	b := newBucket(t)
	dir := filepath.Join(t.TempDir(), "data.sqld")
	s := startServer(t, b, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	const ns = "outage"
	if err := s.admin.Create(ctx, ns); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"CREATE TABLE t(v INTEGER PRIMARY KEY)", "CREATE TABLE big(b BLOB)"} {
		if _, err := s.exec(ctx, ns, q); err != nil {
			t.Fatal(err)
		}
	}
	s.waitShipped(t, 5*time.Second)

	w := &writer{ns: ns}
	wctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); w.run(wctx, s) }()
	time.Sleep(500 * time.Millisecond)

	if err := b.s3.Stop(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := s.exec(ctx, ns, bulkInsert); err != nil {
			t.Fatal(err)
		}
	}
	// The lag grows past the configured one while S3 is away.
	deadline := time.Now().Add(10 * time.Second)
	for s.metric(t, "dwk_libsql_backup_lag_seconds") < 3*lag.Seconds() {
		if time.Now().After(deadline) {
			t.Fatalf("lag %.2fs during the outage, want it to grow past %s", s.metric(t, "dwk_libsql_backup_lag_seconds"), 3*lag)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if f := s.metric(t, "dwk_libsql_backup_failures_total"); f == 0 {
		t.Error("no failed upload counted during the outage")
	}
	wantBig := s.ints(t, ns, "SELECT count(*) FROM big")[0]

	if err := b.s3.Restart(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	stop()
	wg.Wait()
	acked := w.ackedBefore(time.Now())
	s.waitShipped(t, 15*time.Second)
	if l := s.metric(t, "dwk_libsql_backup_lag_seconds"); l != 0 {
		t.Errorf("lag %.2fs with nothing pending, want 0", l)
	}
	s.proc.Kill()

	to := filepath.Join(t.TempDir(), "restored")
	if _, err := restore(t, b, to); err != nil {
		t.Fatal(err)
	}
	r := startUnbacked(t, to)
	// The insert the writer's cancellation cut short may have committed
	// unacknowledged; nothing beyond it exists.
	if got := checkPrefix(t, r, ns, acked); got > acked+1 {
		t.Errorf("restored %d rows, want the %d acknowledged (and at most the one in flight)", got, acked)
	}
	if got := r.ints(t, ns, "SELECT count(*) FROM big")[0]; got != wantBig {
		t.Errorf("restored %d bulk rows, want %d (written during the outage)", got, wantBig)
	}
}
