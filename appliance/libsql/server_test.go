package libsql

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// startServer opens a server on loopback ports in a temporary directory
// and closes it when the test ends.
func startServer(t testing.TB, cfg Config) *Server {
	t.Helper()
	if cfg.DBPath == "" {
		cfg.DBPath = t.TempDir()
	}
	cfg.HTTPListenAddr = "127.0.0.1:0"
	if cfg.AdminListenAddr == "" {
		cfg.AdminListenAddr = "127.0.0.1:0"
	}
	s := New(cfg)
	if err := s.Open(); err != nil {
		t.Fatalf("open: %v", err)
	}
	served := make(chan error, 1)
	go func() { served <- s.Serve() }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.Close(ctx); err != nil {
			t.Errorf("close: %v", err)
		}
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return s
}

func (s *Server) url() string { return "http://" + s.Addr().String() }

// pipeline posts a pipeline request and decodes the response.
func pipeline(t testing.TB, s *Server, path string, req any, hdr http.Header) (int, *hrana.PipelineResponse, []byte) {
	t.Helper()
	body, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	hreq, _ := http.NewRequest("POST", s.url()+path, bytes.NewReader(body))
	for k, v := range hdr {
		hreq.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(hreq)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, nil, raw
	}
	var out hrana.PipelineResponse
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return resp.StatusCode, &out, raw
}

func exec(sql string, args ...hrana.Value) hrana.StreamRequest {
	st := hrana.NewStmt(sql, args...)
	return hrana.StreamRequest{Type: hrana.TypeExecute, Stmt: &st}
}

func TestPipelineRoundTrip(t *testing.T) {
	s := startServer(t, Config{})
	req := hrana.PipelineRequest{Requests: []hrana.StreamRequest{
		exec("CREATE TABLE t(a INTEGER, d DATE, b BLOB)"),
		exec("INSERT INTO t VALUES (?, ?, ?)", hrana.Integer(-9223372036854775808), hrana.Text("2024-01-01"), hrana.Blob([]byte{0, 1, 2})),
		exec("SELECT a, d, b, 1.5 AS f, NULL AS n FROM t"),
		exec("SELEC 1"),
		{Type: hrana.TypeGetAutocommit},
	}}
	code, resp, raw := pipeline(t, s, "/v3/pipeline", req, nil)
	if code != 200 {
		t.Fatalf("status %d: %s", code, raw)
	}
	t.Logf("%s", raw)
	if resp.Baton == nil {
		t.Fatal("no baton")
	}
	ins := resp.Results[1].Response.Execute
	if ins.AffectedRowCount != 1 || !ins.LastInsertRowID.Valid || ins.LastInsertRowID.Value != 1 {
		t.Errorf("insert result = %+v", ins)
	}
	sel := resp.Results[2].Response.Execute
	want := []hrana.Value{hrana.Integer(-9223372036854775808), hrana.Text("2024-01-01"), hrana.Blob([]byte{0, 1, 2}), hrana.Float(1.5), hrana.Null()}
	if len(sel.Rows) != 1 {
		t.Fatalf("rows = %v", sel.Rows)
	}
	for i, v := range want {
		if got := sel.Rows[0][i]; got.String() != v.String() {
			t.Errorf("col %d = %v, want %v", i, got, v)
		}
	}
	if e := resp.Results[3].Error; e == nil || e.Code != hrana.CodeSQLInput {
		t.Errorf("syntax error result = %+v", resp.Results[3])
	}
	if !resp.Results[4].Response.IsAutocommit {
		t.Error("not autocommit")
	}
}
