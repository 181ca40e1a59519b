package libsql

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/sqlite"
)

// The benchmarks compare one point query through the server (HTTP on
// loopback, the way @libsql/client sends it: open a stream, execute, close)
// with the same query in process, and measure commits with synchronous
// FULL and NORMAL. `make bench` computes the ratios.

const benchQuery = "SELECT v FROM kv WHERE k = ?"

func benchSetup(b *testing.B, c *sqlite.Conn) {
	b.Helper()
	if err := c.Exec("CREATE TABLE IF NOT EXISTS kv (k INTEGER PRIMARY KEY, v TEXT); INSERT OR REPLACE INTO kv VALUES (1, 'one');"); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkPipelineHTTP is one pipeline round trip over loopback HTTP.
func BenchmarkPipelineHTTP(b *testing.B) {
	s := startServer(b, Config{})
	ns, _ := s.nss.get(DefaultNamespace)
	c, err := ns.pool.get()
	if err != nil {
		b.Fatal(err)
	}
	benchSetup(b, c)
	ns.pool.put(c, true)

	stmt := hrana.NewStmt(benchQuery, hrana.Integer(1))
	body, _ := json.Marshal(hrana.PipelineRequest{Requests: []hrana.StreamRequest{
		{Type: hrana.TypeExecute, Stmt: &stmt}, {Type: hrana.TypeClose},
	}})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	url := s.url() + "/v2/pipeline"
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		resp, err := client.Post(url, "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !bytes.Contains(data, []byte(`"one"`)) {
			b.Fatalf("%d %s", resp.StatusCode, data)
		}
	}
}

// BenchmarkInProcessSQLite is the same query on a SQLite connection in
// this process, through the binding the server uses.
func BenchmarkInProcessSQLite(b *testing.B) {
	c, err := sqlite.Open(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	if err := c.Exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL"); err != nil {
		b.Fatal(err)
	}
	benchSetup(b, c)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		st, _, err := c.Prepare(benchQuery)
		if err != nil {
			b.Fatal(err)
		}
		st.BindInt64(1, 1)
		if row, err := st.Step(); err != nil || !row || st.ColumnText(0) != "one" {
			b.Fatalf("step: %v %v", row, err)
		}
		st.Finalize()
	}
}

// BenchmarkInProcessDatabaseSQL is the same query through database/sql and
// the modernc driver, for reference.
func BenchmarkInProcessDatabaseSQL(b *testing.B) {
	db, err := sql.Open("sqlite", filepath.Join(b.TempDir(), "bench.db")+"?_pragma=journal_mode(WAL)")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE kv (k INTEGER PRIMARY KEY, v TEXT); INSERT INTO kv VALUES (1, 'one')"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		var v string
		if err := db.QueryRow(benchQuery, 1).Scan(&v); err != nil || v != "one" {
			b.Fatalf("%q %v", v, err)
		}
	}
}

// BenchmarkCommit measures autocommit INSERTs through the server with each
// synchronous setting; commits/s is reported.
func BenchmarkCommit(b *testing.B) {
	for _, mode := range []string{"FULL", "NORMAL"} {
		b.Run("synchronous="+mode, func(b *testing.B) {
			s := startServer(b, Config{Synchronous: mode})
			post := func(body []byte) {
				resp, err := http.Post(s.url()+"/v2/pipeline", "application/json", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				data, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK || bytes.Contains(data, []byte(`"type":"error"`)) {
					b.Fatalf("%d %s", resp.StatusCode, data)
				}
			}
			create := hrana.NewStmt("CREATE TABLE IF NOT EXISTS c (v BLOB)")
			body, _ := json.Marshal(hrana.PipelineRequest{Requests: []hrana.StreamRequest{{Type: hrana.TypeExecute, Stmt: &create}, {Type: hrana.TypeClose}}})
			post(body)
			ins := hrana.NewStmt("INSERT INTO c VALUES (randomblob(100))")
			body, _ = json.Marshal(hrana.PipelineRequest{Requests: []hrana.StreamRequest{{Type: hrana.TypeExecute, Stmt: &ins}, {Type: hrana.TypeClose}}})
			start := time.Now()
			b.ResetTimer()
			n := 0
			for b.Loop() {
				post(body)
				n++
			}
			b.ReportMetric(float64(n)/time.Since(start).Seconds(), "commits/s")
		})
	}
}
