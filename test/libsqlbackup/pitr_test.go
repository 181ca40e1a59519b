package libsqlbackup

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/libsql/backup"
)

// bulkInsert adds n rows of 3000 random bytes to table big in one
// statement: about n WAL frames, so that a few of them pass the WAL length
// at which the backup checkpoints and SQLite restarts the WAL.
const bulkInsert = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 600)
	INSERT INTO big(b) SELECT randomblob(3000) FROM c`

// fingerprint sums up table big and table t of ns.
func fingerprint(t *testing.T, s *server, ns string) []int64 {
	t.Helper()
	return append(s.ints(t, ns, "SELECT count(*) + coalesce(sum(length(b)), 0) + coalesce(sum(unicode(substr(b, 7, 1))), 0) FROM big"),
		s.ints(t, ns, "SELECT coalesce(sum(v), -1) FROM t")...)
}

// TestPointInTimeRestore restores the state as of a timestamp, across the
// backup's own checkpoints (with WAL restarts) and a new generation, and
// refuses to restore into a non-empty dir without --force.
func TestPointInTimeRestore(t *testing.T) {
	b := newBucket(t)
	dir := filepath.Join(t.TempDir(), "data.sqld")
	s := startServer(t, b, dir, "--backup-snapshot-interval", "3s", "--backup-retention", "1h")
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	const ns = "pitr"
	if err := s.admin.Create(ctx, ns); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"CREATE TABLE t(v)", "CREATE TABLE big(b BLOB)", "INSERT INTO t VALUES (1)", bulkInsert} {
		if _, err := s.exec(ctx, ns, q); err != nil {
			t.Fatal(err)
		}
	}
	// A namespace that exists at at1 and is deleted after it.
	const gone = "gone-later"
	if err := s.admin.Create(ctx, gone); err != nil {
		t.Fatal(err)
	}
	s.waitShipped(t, 5*time.Second)
	before := readState(t, dir, ns)
	first := fingerprint(t, s, ns)
	time.Sleep(20 * time.Millisecond)
	at1 := time.Now()
	time.Sleep(20 * time.Millisecond)

	if err := s.admin.Delete(ctx, gone); err != nil {
		t.Fatal(err)
	}

	// Past the checkpoint threshold: the backup checkpoints, SQLite
	// restarts the WAL, and a new generation starts on the way.
	for i := range 2 {
		if _, err := s.exec(ctx, ns, bulkInsert); err != nil {
			t.Fatal(err)
		}
		if _, err := s.exec(ctx, ns, "INSERT INTO t VALUES (10)"); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			s.waitShipped(t, 5*time.Second)
			time.Sleep(3 * time.Second)
		}
	}
	s.waitShipped(t, 5*time.Second)
	after := readState(t, dir, ns)
	if after.Salt1 == before.Salt1 || after.Generation == before.Generation {
		t.Errorf("backup state went from %+v to %+v: want a WAL restart (salt1) and a new generation", before, after)
	}
	if strings.Contains(s.proc.Output(), "not followable") {
		t.Errorf("the backup lost track of the WAL:\n%s", s.proc.Output())
	}
	second := fingerprint(t, s, ns)
	at2 := time.Now()
	time.Sleep(20 * time.Millisecond)
	if _, err := s.exec(ctx, ns, "DELETE FROM big"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.exec(ctx, ns, "INSERT INTO t VALUES (100)"); err != nil {
		t.Fatal(err)
	}
	s.waitShipped(t, 5*time.Second)
	latest := fingerprint(t, s, ns)
	if snap := s.metric(t, "dwk_libsql_backup_last_snapshot_timestamp_seconds"); snap < float64(at1.Unix()) {
		t.Errorf("last snapshot at %v, want a new generation after %v (snapshot interval 3s)", time.Unix(int64(snap), 0), at1)
	}

	for _, c := range []struct {
		name string
		at   time.Time
		want []int64
		gone bool // whether namespace gone exists then
	}{
		{"at1", at1, first, true},
		{"at2", at2, second, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			to := filepath.Join(t.TempDir(), "restored")
			if _, err := restore(t, b, to, "--at", c.at.UTC().Format(time.RFC3339Nano)); err != nil {
				t.Fatal(err)
			}
			r := startUnbacked(t, to)
			got := fingerprint(t, r, ns)
			if !equal(got, c.want) {
				t.Errorf("restored as of %s: %v, want %v", c.name, got, c.want)
			}
			if ok, err := r.admin.Exists(ctx, gone); err != nil || ok != c.gone {
				t.Errorf("namespace %s restored as of %s: %v, %v; want %v", gone, c.name, ok, err, c.gone)
			}
		})
	}

	// A non-empty data dir is refused, then replaced with --force by the
	// latest state.
	to := filepath.Join(t.TempDir(), "busy")
	if _, err := restore(t, b, to, "--at", at1.UTC().Format(time.RFC3339Nano)); err != nil {
		t.Fatal(err)
	}
	out, err := restore(t, b, to)
	if err == nil || !strings.Contains(out, "not empty") || !strings.Contains(out, "--force") {
		t.Fatalf("restore into a non-empty dir: %v, want a refusal naming --force", err)
	}
	if _, err := restore(t, b, to, "--force"); err != nil {
		t.Fatal(err)
	}
	r := startUnbacked(t, to)
	if got := fingerprint(t, r, ns); !equal(got, latest) {
		t.Errorf("forced restore: %v, want the latest %v", got, latest)
	}
}

// shipState is the part of a namespace's backup.json the test checks.
type shipState struct {
	Generation string `json:"generation"`
	Salt1      uint32 `json:"salt1"`
	Frame      uint32 `json:"frame"`
}

func readState(t *testing.T, dir, ns string) shipState {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "dbs", ns, backup.StateFile))
	if err != nil {
		t.Fatal(err)
	}
	var st shipState
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
