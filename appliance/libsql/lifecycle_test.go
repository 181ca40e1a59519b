package libsql

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/sqlite"
)

func closeReq() hrana.StreamRequest { return hrana.StreamRequest{Type: hrana.TypeClose} }

func TestCloseRollsBackAndCheckpoints(t *testing.T) {
	dir := t.TempDir()
	s := New(Config{DBPath: dir, HTTPListenAddr: "127.0.0.1:0"})
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- s.Serve() }()

	code, resp, raw := pipeline(t, s, "/v2/pipeline", hrana.PipelineRequest{Requests: []hrana.StreamRequest{
		exec("CREATE TABLE t(v)"), exec("INSERT INTO t VALUES ('committed')"),
		exec("BEGIN"), exec("INSERT INTO t VALUES ('open transaction')"),
	}}, nil)
	if code != 200 || resp.Baton == nil {
		t.Fatalf("setup: %d %s", code, raw)
	}
	if err := New(Config{DBPath: dir, HTTPListenAddr: "127.0.0.1:0"}).Open(); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("a second server on the same directory: %v, want a lock error", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.Close(ctx); err != nil {
		t.Fatalf("close: %v", err)
	}
	if err := <-served; err != nil {
		t.Fatalf("serve: %v", err)
	}

	data := filepath.Join(dir, "dbs", DefaultNamespace, "data")
	if fi, err := os.Stat(data + "-wal"); err == nil && fi.Size() != 0 {
		t.Errorf("WAL has %d bytes after close, want it checkpointed and truncated", fi.Size())
	}
	c, err := sqlite.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, err := c.QueryInt64s("SELECT count(*) FROM t")
	if err != nil || got[0] != 1 {
		t.Fatalf("rows after close = %v, %v; want 1 (the open transaction rolled back)", got, err)
	}
}

func TestStreamExpiry(t *testing.T) {
	clock := newFakeClock()
	s := startServer(t, Config{Now: clock.Now})
	_, resp, raw := pipeline(t, s, "/v2/pipeline", hrana.PipelineRequest{Requests: []hrana.StreamRequest{
		exec("CREATE TABLE t(v)"), exec("BEGIN IMMEDIATE"), exec("INSERT INTO t VALUES (1)"),
	}}, nil)
	if resp == nil || resp.Baton == nil {
		t.Fatalf("setup: %s", raw)
	}
	clock.Advance(DefaultStreamIdleTimeout + time.Second)
	if n := s.streams.expire(); n != 1 {
		t.Fatalf("expired %d streams, want 1", n)
	}
	code, _, raw := pipeline(t, s, "/v2/pipeline", hrana.PipelineRequest{Baton: resp.Baton, Requests: []hrana.StreamRequest{exec("COMMIT")}}, nil)
	if code != http.StatusBadRequest || !strings.Contains(raw2s(raw), hrana.CodeStreamExpired) {
		t.Errorf("expired baton: %d %s, want 400 STREAM_EXPIRED", code, raw)
	}
	// The write lock went with the stream: another writer gets through
	// at once and the uncommitted row is gone.
	_, resp, raw = pipeline(t, s, "/v2/pipeline", hrana.PipelineRequest{Requests: []hrana.StreamRequest{
		exec("INSERT INTO t VALUES (2)"), exec("SELECT count(*) FROM t"), closeReq(),
	}}, nil)
	if resp == nil || resp.Results[0].Error != nil || resp.Results[1].Response.Execute.Rows[0][0].Int != 1 {
		t.Errorf("after expiry: %s", raw)
	}
	if got := s.slots.used(); got != 0 {
		t.Errorf("%d stream slots still used", got)
	}
}

func raw2s(b []byte) string { return string(b) }

func TestRequestErrors(t *testing.T) {
	pub, priv := newKey(t)
	s := startServer(t, Config{AuthJWTKey: pemKey(t, pub), MaxResponseSize: 4096})
	rw := http.Header{"Authorization": {"Bearer " + sign(t, priv, nil)}}
	simple := hrana.PipelineRequest{Requests: []hrana.StreamRequest{exec("SELECT 1"), closeReq()}}
	tests := []struct {
		name   string
		hdr    http.Header
		req    any
		status int
		code   string
	}{
		{"no token", nil, simple, 401, hrana.CodeAuthHeaderNotFound},
		{"bad token", http.Header{"Authorization": {"Bearer x"}}, simple, 401, hrana.CodeAuthJWTInvalid},
		{"unknown namespace", http.Header{"Authorization": rw["Authorization"], "X-Namespace": {"nope"}}, simple, 404, hrana.CodeNamespaceNotFound},
		{"invalid namespace", http.Header{"Authorization": rw["Authorization"], "X-Namespace": {"No!"}}, simple, 400, hrana.CodeInvalidNamespace},
		{"malformed", rw, map[string]any{"requests": "no"}, 400, hrana.CodeProtocol},
		{"ok", rw, simple, 200, ""},
	}
	for _, tt := range tests {
		code, _, raw := pipeline(t, s, "/v2/pipeline", tt.req, tt.hdr)
		if code != tt.status || (tt.code != "" && !strings.Contains(string(raw), `"code":"`+tt.code+`"`)) {
			t.Errorf("%s: %d %s, want %d %s", tt.name, code, raw, tt.status, tt.code)
		}
	}
	// Responses over the limit fail the request with RESPONSE_TOO_LARGE.
	_, resp, raw := pipeline(t, s, "/v2/pipeline", hrana.PipelineRequest{Requests: []hrana.StreamRequest{
		exec("WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r WHERE i < 1000) SELECT i, 'some text' FROM r"), closeReq(),
	}}, rw)
	if resp == nil || resp.Results[0].Error == nil || resp.Results[0].Error.Code != hrana.CodeResponseTooLarge {
		t.Errorf("large response: %s", raw)
	}
}

func TestDeleteNamespaceWithOpenStream(t *testing.T) {
	s := startServer(t, Config{})
	admin := "http://" + s.AdminAddr().String()
	post := func(method, path, body string) int {
		req, _ := http.NewRequest(method, admin+path, strings.NewReader(body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post("POST", "/v1/namespaces/ns0/create", `{"dump_url": "file:///tmp/dump.sql"}`); code != 400 {
		t.Errorf("create from a dump: %d, want 400 (not supported)", code)
	}
	if code := post("POST", "/v1/namespaces/ns1/create", `{"jwt_key": null, "max_db_size": "5mb", "future_field": [1]}`); code != 200 {
		t.Fatalf("create: %d", code)
	}
	if code := post("POST", "/v1/namespaces/ns1/checkpoint", ""); code != 200 {
		t.Errorf("checkpoint: %d", code)
	}
	ns1 := http.Header{"X-Namespace": {"ns1"}}
	_, resp, raw := pipeline(t, s, "/v2/pipeline", hrana.PipelineRequest{Requests: []hrana.StreamRequest{
		exec("CREATE TABLE t(v)"), exec("BEGIN"), exec("INSERT INTO t VALUES (1)"),
	}}, ns1)
	if resp == nil || resp.Baton == nil {
		t.Fatalf("setup: %s", raw)
	}
	if code := post("POST", "/v1/namespaces/ns1/config", `{"block_writes": true, "block_reason": "maintenance"}`); code != 200 {
		t.Fatalf("config: %d", code)
	}
	_, r2, raw := pipeline(t, s, "/v2/pipeline", hrana.PipelineRequest{Requests: []hrana.StreamRequest{exec("INSERT INTO t VALUES (2)"), closeReq()}}, ns1)
	if r2 == nil || r2.Results[0].Error == nil || !strings.Contains(r2.Results[0].Error.Message, "maintenance") {
		t.Errorf("write to a blocked namespace: %s", raw)
	}
	if code := post("DELETE", "/v1/namespaces/ns1", ""); code != 200 {
		t.Fatalf("delete with an open stream: %d", code)
	}
	if _, err := os.Stat(filepath.Join(s.cfg.DBPath, "dbs", "ns1")); !os.IsNotExist(err) {
		t.Errorf("namespace directory still there: %v", err)
	}
	code, _, raw := pipeline(t, s, "/v2/pipeline", hrana.PipelineRequest{Baton: resp.Baton, Requests: []hrana.StreamRequest{exec("COMMIT")}}, ns1)
	if code == 200 {
		t.Errorf("stream of a deleted namespace still works: %s", raw)
	}
	if got := s.slots.used(); got != 0 {
		t.Errorf("%d stream slots still used", got)
	}
	if code := post("DELETE", "/v1/namespaces/default", ""); code != 400 {
		t.Errorf("delete default: %d, want 400", code)
	}
}

func TestCloseWithoutServe(t *testing.T) {
	s := New(Config{DBPath: t.TempDir(), HTTPListenAddr: "127.0.0.1:0", AdminListenAddr: "127.0.0.1:0"})
	if err := s.Serve(); err == nil {
		t.Error("Serve before Open succeeded")
	}
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	addr := s.Addr().String()
	if err := s.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(t.Context()); err != nil {
		t.Fatalf("second close: %v", err)
	}
	if _, err := http.Get("http://" + addr + "/health"); err == nil {
		t.Error("listener still open after Close")
	}
	if err := s.Open(); err == nil {
		t.Error("reopening a closed server succeeded")
	}
}
