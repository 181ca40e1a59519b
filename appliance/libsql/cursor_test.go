package libsql

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

func TestHTTPCursor(t *testing.T) {
	s := startServer(t, Config{})
	_, resp, raw := pipeline(t, s, "/v3/pipeline", hrana.PipelineRequest{Requests: []hrana.StreamRequest{
		exec("CREATE TABLE t(a INTEGER)"), exec("INSERT INTO t VALUES (1), (2)"),
	}}, nil)
	if resp == nil {
		t.Fatalf("setup: %s", raw)
	}
	body := `{"baton":"` + *resp.Baton + `","batch":{"steps":[
		{"stmt":{"sql":"SELECT a FROM t ORDER BY a"}},
		{"stmt":{"sql":"INSERT INTO t VALUES (3)"},"condition":{"type":"ok","step":0}},
		{"stmt":{"sql":"INSERT INTO nope VALUES (1)"}},
		{"stmt":{"sql":"SELECT 1"},"condition":{"type":"ok","step":2}}]}}`
	hresp, err := http.Post(s.url()+"/v3/cursor", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer hresp.Body.Close()
	sc := bufio.NewScanner(hresp.Body)
	if !sc.Scan() {
		t.Fatal("empty cursor response")
	}
	var head hrana.CursorResponse
	if err := json.Unmarshal(sc.Bytes(), &head); err != nil || head.Baton == nil {
		t.Fatalf("cursor head %s: %v", sc.Text(), err)
	}
	// Use the new baton at once, before the cursor response is finished:
	// the server must wait for the cursor rather than call it reused.
	next := make(chan *hrana.PipelineResponse, 1)
	go func() {
		_, r, _ := pipeline(t, s, "/v3/pipeline", hrana.PipelineRequest{Baton: head.Baton, Requests: []hrana.StreamRequest{exec("SELECT count(*) FROM t"), closeReq()}}, nil)
		next <- r
	}()
	var got []string
	for sc.Scan() {
		var e hrana.CursorEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("entry %s: %v", sc.Text(), err)
		}
		desc := e.Type
		switch e.Type {
		case hrana.EntryRow:
			desc += ":" + e.Row[0].String()
		case hrana.EntryStepEnd:
			desc += ":" + itoa(int(e.AffectedRowCount))
		case hrana.EntryStepError:
			desc += ":" + itoa(int(e.Step))
		}
		got = append(got, desc)
	}
	want := "step_begin row:1 row:2 step_end:0 step_begin step_end:1 step_error:2"
	if strings.Join(got, " ") != want {
		t.Errorf("entries = %q, want %q", strings.Join(got, " "), want)
	}
	r := <-next
	if r == nil || r.Results[0].Response == nil || r.Results[0].Response.Execute.Rows[0][0].Int != 3 {
		t.Errorf("request after the cursor: %+v", r)
	}
}

func TestReopenKeepsNamespaces(t *testing.T) {
	dir := t.TempDir()
	s := startServer(t, Config{DBPath: dir})
	key := "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n"
	cfg := nsConfig{JWTKey: &key}
	if err := s.nss.create("keep", cfg); err != nil {
		t.Fatal(err)
	}
	if err := s.nss.create("keep", nsConfig{}); err == nil {
		t.Fatal("created a namespace twice")
	}
	if err := s.Close(t.Context()); err != nil {
		t.Fatal(err)
	}

	s2 := startServer(t, Config{DBPath: dir})
	if got := strings.Join(s2.nss.list(), ","); got != "default,keep" {
		t.Fatalf("namespaces after reopen = %s", got)
	}
	ns, _ := s2.nss.get("keep")
	if _, keys := ns.config(); len(keys) != 1 {
		t.Errorf("namespace JWT key lost: %d keys", len(keys))
	}
	// The namespace's own key now guards it: no token, no access.
	code, _, raw := pipeline(t, s2, "/v2/pipeline", hrana.PipelineRequest{Requests: []hrana.StreamRequest{exec("SELECT 1")}}, http.Header{"X-Namespace": {"keep"}})
	if code != http.StatusUnauthorized {
		t.Errorf("namespace with its own key, no token: %d %s", code, raw)
	}
	code, _, raw = pipeline(t, s2, "/v2/pipeline", hrana.PipelineRequest{Requests: []hrana.StreamRequest{exec("SELECT 1"), closeReq()}}, nil)
	if code != http.StatusOK {
		t.Errorf("default namespace: %d %s", code, raw)
	}
}
