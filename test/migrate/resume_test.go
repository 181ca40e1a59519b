package migrate

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/procs"
)

// The stores the test fills, and how much.
const (
	keys    = 1500
	objects = 150
)

// filled are the stores fill writes (the reference workers bind others,
// empty).
var filled = map[string]bool{"bulk": true, "blobs": true, "big": true}

// row matches a row of dwk migrate's table: kind, name, entries, copied,
// replaced, skipped, verified.
var row = regexp.MustCompile(`│ (d1|kv|r2)\s+│ (\S+)\s+│ (\d+)\s+│ \d+\s+│ (\d+)\s+│ (\d+)\s+│ (\d+)\s+│ (yes|no)`)

// TestKilledMigrationResumes kills `dwk migrate to-central` (SIGKILL)
// while it copies, runs it again, and checks that the second run skips
// what the first copied, copies the rest, and verifies every entry: none
// missing, none twice.
func TestKilledMigrationResumes(t *testing.T) {
	for attempt, delay := range []time.Duration{1500 * time.Millisecond, 3 * time.Second, 700 * time.Millisecond, 6 * time.Second} {
		skipped, ok := killAndResume(t, delay)
		if ok {
			t.Logf("killed after %v: the second run skipped %d entries the first had copied", delay, skipped)
			return
		}
		t.Logf("attempt %d: the kill after %v did not land while entries were being copied; trying another delay", attempt+1, delay)
	}
	t.Fatal("no kill landed while dwk migrate was copying")
}

// killAndResume runs one attempt; ok is false when the kill did not land
// mid-copy (nothing or everything was copied).
func killAndResume(t *testing.T, delay time.Duration) (skipped int, ok bool) {
	f := provisioned(t)
	dir := t.TempDir()
	fill(t, dir)

	bin := procs.Binary(t)
	env := []string{"DWK_FLEET_SECRET=" + f.Secret, "DWK_S3_SECRET=" + f.S3.SecretKey, "DWK_ADMIN_TOKEN=" + fleettest.AdminToken}
	first := procs.Start(t, "dwk migrate (killed)", bin, env, "migrate", "to-central", "--data-dir", dir, "--config", f.Replicas[0].Config)
	first.WaitFor(regexp.MustCompile(`^Copying`), time.Minute)
	time.Sleep(delay)
	first.Kill()

	code, out := f.Run("migrate", "to-central", "--data-dir", dir, "--config", f.Replicas[0].Config)
	if code != 0 {
		t.Fatalf("the second run: exit %d\n%s\nthe first run's output:\n%s", code, out, first.Output())
	}
	var rows [][]string
	for _, r := range row.FindAllStringSubmatch(out, -1) {
		if filled[r[2]] {
			rows = append(rows, r)
		}
	}
	if len(rows) != len(filled) {
		t.Fatalf("the second run's table has %d rows of the filled stores, want %d:\n%s", len(rows), len(filled), out)
	}
	mid := false
	for _, r := range rows {
		entries, copied, replaced, skip := atoi(r[3]), atoi(r[4]), atoi(r[5]), atoi(r[6])
		if r[7] != "yes" || copied+skip != entries || replaced != 0 {
			t.Fatalf("%s %s after the kill: %d entries, %d copied, %d replaced, %d skipped, verified %s: want every entry copied once and verified\n%s", r[1], r[2], entries, copied, replaced, skip, r[7], out)
		}
		skipped += skip
		if r[1] == "kv" && copied > 0 && skip > 0 {
			mid = true
		}
	}
	return skipped, mid
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// fill writes keys, objects and a database into a local data directory,
// through its stores.
func fill(t *testing.T, dir string) {
	t.Helper()
	ctx := context.Background()
	_, st, done := openDir(t, dir)
	defer done()
	kv, _ := st.KV("bulk")
	for i := range keys {
		if err := kv.Put(ctx, fmt.Sprintf("key-%05d", i), []byte(strings.Repeat("v", 100+i%50)), &worker.KVPutOptions{Metadata: []byte(fmt.Sprintf(`{"i":%d}`, i))}); err != nil {
			t.Fatal(err)
		}
	}
	r2, _ := st.R2("blobs")
	for i := range objects {
		if _, err := r2.Put(ctx, fmt.Sprintf("obj/%04d", i), strings.NewReader(strings.Repeat("o", 1000+i)), &worker.R2PutOptions{
			HTTPMetadata: worker.R2HTTPMetadata{ContentType: "text/plain"},
		}); err != nil {
			t.Fatal(err)
		}
	}
	db, _ := st.D1("big")
	if _, err := db.Exec(ctx, "CREATE TABLE t (n INTEGER, s TEXT); INSERT INTO t SELECT value, hex(randomblob(16)) FROM generate_series(1, 2000)"); err != nil {
		if _, err := db.Exec(ctx, "CREATE TABLE IF NOT EXISTS t (n INTEGER, s TEXT); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 2000) INSERT INTO t SELECT x, hex(randomblob(16)) FROM c"); err != nil {
			t.Fatal(err)
		}
	}
}
