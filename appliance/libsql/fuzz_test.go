package libsql

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// FuzzPipeline drives arbitrary bodies through the pipeline endpoints of a
// real server (decoding and execution on SQLite). Whatever the input, the
// server must answer within bounded time with a Hrana error or a result
// per request, never a 500, a crash or a hang.
func FuzzPipeline(f *testing.F) {
	seeds := []string{
		`{"baton":null,"requests":[{"type":"execute","stmt":{"sql":"SELECT 1"}}]}`,
		`{"baton":null,"requests":[{"type":"execute","stmt":{"sql":"CREATE TABLE IF NOT EXISTS t(a, b)"}},{"type":"execute","stmt":{"sql":"INSERT INTO t VALUES (?, :b)","named_args":[{"name":"b","value":{"type":"blob","base64":"AAEC"}}]}},{"type":"close"}]}`,
		`{"baton":null,"requests":[{"type":"batch","batch":{"steps":[{"stmt":{"sql":"BEGIN"}},{"stmt":{"sql":"INSERT INTO t VALUES (1, 2)"},"condition":{"type":"ok","step":0}},{"stmt":{"sql":"COMMIT"},"condition":{"type":"and","conds":[{"type":"ok","step":1},{"type":"not","cond":{"type":"error","step":0}}]}},{"stmt":{"sql":"ROLLBACK"},"condition":{"type":"or","conds":[{"type":"is_autocommit"}]}}]}}]}`,
		`{"baton":null,"requests":[{"type":"store_sql","sql_id":1,"sql":"SELECT ?"},{"type":"execute","stmt":{"sql_id":1,"args":[{"type":"float","value":1.5}]}},{"type":"close_sql","sql_id":1},{"type":"describe","sql":"SELECT :x"},{"type":"sequence","sql":"SELECT 1; SELECT 2"},{"type":"get_autocommit"}]}`,
		`{"baton":"AAAA","requests":[]}`,
		`{"requests":[{"type":"execute","stmt":{"sql":"SELECT x'00', 9223372036854775807, -0.0, 'é'","want_rows":false}}]}`,
		`{"requests":[{"type":"execute","stmt":{"sql":"WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r) SELECT count(*) FROM r"}}]}`,
		`{"requests":[{"type":"execute","stmt":{"sql":"SELECT zeroblob(1000000000)"}}]}`,
		`{}`, `[]`, `null`, ``, `{"requests":[{"type":"batch","batch":{"steps":[{"condition":{"type":"not","cond":{"type":"not"}},"stmt":{"sql":"x"}}]}}]}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	s := New(Config{
		DBPath:            f.TempDir(),
		HTTPListenAddr:    "127.0.0.1:0",
		StatementTimeout:  200 * time.Millisecond,
		BusyTimeout:       50 * time.Millisecond,
		StreamIdleTimeout: 100 * time.Millisecond,
		MaxBodySize:       64 << 10,
		MaxResponseSize:   1 << 20,
		MaxStreams:        16,
	})
	if err := s.Open(); err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() {
		if err := s.Close(f.Context()); err != nil {
			f.Error(err)
		}
	})
	h := s.Handler()

	f.Fuzz(func(t *testing.T, body []byte, v3 bool) {
		path := "/v2/pipeline"
		if v3 {
			path = "/v3/pipeline"
		}
		rec := httptest.NewRecorder()
		done := make(chan struct{})
		go func() {
			defer close(done)
			req := httptest.NewRequest("POST", path, bytes.NewReader(body))
			req.Host = "127.0.0.1"
			h.ServeHTTP(rec, req)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer within 10s to %q", body)
		}
		switch rec.Code {
		case http.StatusOK, http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusTooManyRequests:
		default:
			t.Fatalf("status %d for %q: %s", rec.Code, body, rec.Body)
		}
		if rec.Code != http.StatusOK {
			var e httpErrorBody
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Message == "" || e.Code == "" {
				t.Fatalf("error response is not a Hrana error: %s (%v)", rec.Body, err)
			}
			return
		}
		var resp hrana.PipelineResponse
		if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
			t.Fatalf("undecodable response %s: %v", rec.Body, err)
		}
		var req hrana.PipelineRequest
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatalf("server accepted a body the decoder rejects (%v): %q", err, body)
		}
		if len(resp.Results) != len(req.Requests) {
			t.Fatalf("%d results for %d requests", len(resp.Results), len(req.Requests))
		}
	})
}
