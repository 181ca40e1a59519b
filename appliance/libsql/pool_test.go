package libsql

import (
	"fmt"
	"net/http"
	"os"
	"testing"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// TestIdleConnectionsAcrossNamespacesAreBounded writes once to many
// namespaces, then reads them again in another order: the idle
// connections (and so the open files) stay within MaxIdleConns, and a
// namespace whose connection was closed reopens with its data.
func TestIdleConnectionsAcrossNamespacesAreBounded(t *testing.T) {
	const namespaces, budget = 120, 10
	s := startServer(t, Config{MaxIdleConns: budget})
	fds0 := openFiles(t)
	for i := range namespaces {
		name := fmt.Sprintf("lru%d", i)
		if err := s.nss.create(name, nsConfig{}); err != nil {
			t.Fatal(err)
		}
		hdr := http.Header{"X-Namespace": {name}}
		req := hrana.PipelineRequest{Requests: []hrana.StreamRequest{
			exec("CREATE TABLE t(v)"), exec("INSERT INTO t VALUES (?)", hrana.Integer(int64(i))), {Type: hrana.TypeClose},
		}}
		if code, _, raw := pipeline(t, s, "/v2/pipeline", req, hdr); code != http.StatusOK {
			t.Fatalf("namespace %s: %d %s", name, code, raw)
		}
		if n := s.nss.idle.len(); n > budget {
			t.Fatalf("after %d namespaces: %d idle connections, budget %d", i+1, n, budget)
		}
	}
	for i := namespaces - 1; i >= 0; i -= 7 {
		hdr := http.Header{"X-Namespace": {fmt.Sprintf("lru%d", i)}}
		req := hrana.PipelineRequest{Requests: []hrana.StreamRequest{exec("SELECT v FROM t"), {Type: hrana.TypeClose}}}
		code, out, raw := pipeline(t, s, "/v2/pipeline", req, hdr)
		if code != http.StatusOK || out.Results[0].Response == nil {
			t.Fatalf("read lru%d: %d %s", i, code, raw)
		}
		rows := out.Results[0].Response.Execute.Rows
		if len(rows) != 1 || rows[0][0].Go() != int64(i) {
			t.Fatalf("read lru%d: rows %v", i, rows)
		}
	}
	if n := s.nss.idle.len(); n > budget {
		t.Errorf("%d idle connections, budget %d", n, budget)
	}
	// Three files per idle connection, plus slack for sockets.
	if grew := openFiles(t) - fds0; grew > 3*budget+20 {
		t.Errorf("open files grew by %d for %d namespaces; want at most %d", grew, namespaces, 3*budget+20)
	}
}

// openFiles counts this process's open file descriptors.
func openFiles(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count open files: %v", err)
	}
	return len(ents)
}
