package migrate

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/migrate"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/procs"
	"github.com/dwk/fleet/test/wait"
)

// What BenchmarkMigrateToCentral moves.
const (
	benchKeys     = 2000 // KV keys of 1 KiB
	benchBlobs    = 200  // R2 objects of 64 KiB
	benchObjects  = 200  // Durable Objects with a table and a KV entry each
	benchRows     = 5000 // rows of the D1 database
	benchBlobSize = 64 << 10
)

// BenchmarkMigrateToCentral cuts a box over to a fleet and times it: a
// local dwk serve on a data directory holding a KV namespace, an R2
// bucket, a D1 database and Durable Objects answers for a counter, the
// fleet (dwk libsql, versitygw and a replica on this machine) serves
// already, empty; the box stops, `dwk migrate to-central` moves the data,
// and a client polls the fleet until it answers the counter's value. It
// reports the migration's MB/s and entries/s (planning and verification
// included), and the downtime: from the box's stop signal to the fleet's
// first answer with the moved value.
func BenchmarkMigrateToCentral(b *testing.B) {
	for range b.N {
		f := provisioned(b)
		dir := b.TempDir()
		bytes := benchFill(b, dir)
		entries := benchKeys + benchBlobs + 1 + benchObjects + 1 // and the counter
		box := serveLocal(b, f, dir)
		counter := "/counter/cutover"
		if code := post(b, box.url+counter+"/increment"); code != http.StatusOK {
			b.Fatalf("increment the counter on the box: %d", code)
		}
		f.Replicas[0].Start()

		stop := time.Now()
		box.stop(b)
		stopped := time.Since(stop)
		start := time.Now()
		code, out := f.Run("migrate", "to-central", "--data-dir", dir, "--config", f.Replicas[0].Config)
		took := time.Since(start)
		if code != 0 || strings.Count(out, "│ yes") < 5 {
			b.Fatalf("dwk migrate: exit %d\n%s", code, out)
		}
		var value struct{ Value int }
		wait.Within(b, 30*time.Second, "the fleet to answer the moved counter", func() bool {
			return getJSON(f.Replicas[0].Public+counter, &value) == nil && value.Value == 1
		})
		down := time.Since(stop)
		b.Logf("the box stopped in %v, dwk migrate to-central took %v, the fleet answered %v after the stop:\n%s",
			stopped.Round(time.Millisecond), took.Round(time.Millisecond), down.Round(time.Millisecond), out)
		b.ReportMetric(float64(bytes)/(1<<20)/took.Seconds(), "MB/s")
		b.ReportMetric(float64(entries)/took.Seconds(), "entries/s")
		b.ReportMetric(took.Seconds(), "seconds")
		b.ReportMetric(float64(bytes)/(1<<20), "MB")
		b.ReportMetric(float64(entries), "entries")
		b.ReportMetric(stopped.Seconds(), "stop-seconds")
		b.ReportMetric(down.Seconds(), "downtime-seconds")
	}
}

// box is a local dwk serve on a data directory.
type box struct {
	url  string
	proc *procs.Proc
}

// serveLocal starts dwk serve in local mode on dir with f's workers and
// secret.
func serveLocal(b *testing.B, f *fleettest.Fleet, dir string) *box {
	b.Helper()
	c, err := config.Load(f.Replicas[0].Config)
	if err != nil {
		b.Fatal(err)
	}
	local := &config.Config{Fleet: config.Fleet{Secret: config.Literal(f.Secret)}, Workers: c.Workers}
	enc, err := config.Encode(local)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "dwk.json")
	if err := os.WriteFile(path, enc, 0o600); err != nil {
		b.Fatal(err)
	}
	p := procs.Start(b, "dwk serve (the box)", procs.Binary(b), nil, "serve", "--config", path, "--data-dir", dir, "--listen", "127.0.0.1:0")
	return &box{url: p.WaitFor(readyRE, 2*time.Minute)[1], proc: p}
}

// stop sends the box SIGTERM and waits for it to exit.
func (x *box) stop(b *testing.B) {
	b.Helper()
	x.proc.Signal(syscall.SIGTERM)
	if code, err := x.proc.Wait(time.Minute); err != nil || code != 0 {
		b.Fatalf("the box did not stop: exit %d, %v", code, err)
	}
}

var readyRE = regexp.MustCompile(`ready on (http://\S+)`)

// client bounds every request of the benchmark.
var client = &http.Client{Timeout: 10 * time.Second}

func post(b *testing.B, url string) int {
	resp, err := client.Post(url, "", nil)
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// getJSON decodes a 200 answer to GET url into v.
func getJSON(url string, v any) error {
	resp, err := client.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
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
	return size
}
