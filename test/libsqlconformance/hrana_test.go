package libsqlconformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// The cases below speak Hrana over HTTP directly, with JSON written by
// hand, to pin down wire behaviour the client libraries do not expose.

// post sends body to path and returns the status and decoded JSON (or the
// raw text when it is not JSON).
func post(t *testing.T, tgt *target, path, body string) (int, map[string]any, string) {
	t.Helper()
	req, err := http.NewRequest("POST", tgt.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if tgt.token != "" {
		req.Header.Set("Authorization", "Bearer "+tgt.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if json.Unmarshal(raw, &out) != nil {
		out = nil
	}
	return resp.StatusCode, out, string(raw)
}

// jsonPath walks decoded JSON: keys for objects, ints for arrays.
func jsonPath(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

func TestVersionProbes(t *testing.T) {
	tgt := startTarget(t)
	for _, path := range []string{"/health", "/v2", "/v3", "/version"} {
		resp, err := http.Get(tgt.url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %d, want 200", path, resp.StatusCode)
		}
	}
}

func TestBatchConditions(t *testing.T) {
	tgt := startTarget(t)
	body := `{"baton": null, "requests": [{"type": "batch", "batch": {"steps": [
		{"stmt": {"sql": "SELECT 1"}},
		{"stmt": {"sql": "SELECT * FROM no_such_table"}},
		{"condition": {"type": "ok", "step": 0}, "stmt": {"sql": "SELECT 2"}},
		{"condition": {"type": "ok", "step": 1}, "stmt": {"sql": "SELECT 3"}},
		{"condition": {"type": "error", "step": 1}, "stmt": {"sql": "SELECT 4"}},
		{"condition": {"type": "not", "cond": {"type": "ok", "step": 1}}, "stmt": {"sql": "SELECT 5"}},
		{"condition": {"type": "and", "conds": [{"type": "ok", "step": 0}, {"type": "error", "step": 1}]}, "stmt": {"sql": "SELECT 6"}},
		{"condition": {"type": "or", "conds": [{"type": "ok", "step": 1}, {"type": "ok", "step": 3}]}, "stmt": {"sql": "SELECT 7"}},
		{"condition": {"type": "and", "conds": []}, "stmt": {"sql": "SELECT 8"}},
		{"condition": {"type": "is_autocommit"}, "stmt": {"sql": "SELECT 9"}}
	]}}, {"type": "close"}]}`
	code, resp, raw := post(t, tgt, "/v3/pipeline", body)
	if code != http.StatusOK {
		t.Fatalf("status %d: %s", code, raw)
	}
	result := jsonPath(resp, "results", 0, "response", "result")
	ran := []bool{true, false, true, false, true, true, true, false, true, true}
	failed := []bool{false, true, false, false, false, false, false, false, false, false}
	for i := range ran {
		gotResult := jsonPath(result, "step_results", i) != nil
		gotError := jsonPath(result, "step_errors", i) != nil
		if gotResult != (ran[i] && !failed[i]) || gotError != failed[i] {
			t.Errorf("step %d: result %v error %v; want ran=%v failed=%v", i, gotResult, gotError, ran[i], failed[i])
		}
	}
	if got := jsonPath(resp, "baton"); got != nil {
		t.Errorf("baton after close = %v, want null", got)
	}
	if v := jsonPath(result, "step_results", 2, "rows", 0, 0); v == nil || jsonPath(v, "value") != "2" || jsonPath(v, "type") != "integer" {
		t.Errorf("step 2 row = %v, want integer \"2\"", v)
	}

	// is_autocommit is a Hrana 3 condition.
	code, _, raw = post(t, tgt, "/v2/pipeline", `{"baton": null, "requests": [{"type": "batch", "batch": {"steps": [
		{"stmt": {"sql": "SELECT 1"}}, {"condition": {"type": "is_autocommit"}, "stmt": {"sql": "SELECT 2"}}]}}]}`)
	if code != http.StatusBadRequest {
		t.Errorf("is_autocommit over v2: %d %s, want 400", code, raw)
	}
	// A condition may only refer to earlier steps.
	code, _, raw = post(t, tgt, "/v2/pipeline", `{"baton": null, "requests": [{"type": "batch", "batch": {"steps": [
		{"condition": {"type": "ok", "step": 0}, "stmt": {"sql": "SELECT 1"}}]}}]}`)
	if code != http.StatusBadRequest {
		t.Errorf("condition on a later step: %d %s, want 400", code, raw)
	}
}

func TestBatons(t *testing.T) {
	tgt := startTarget(t)
	exec := func(baton any, sql string) (int, map[string]any, string) {
		b, _ := json.Marshal(map[string]any{"baton": baton, "requests": []any{
			map[string]any{"type": "execute", "stmt": map[string]any{"sql": sql}},
		}})
		return post(t, tgt, "/v2/pipeline", string(b))
	}
	code, r1, raw := exec(nil, "BEGIN")
	if code != http.StatusOK {
		t.Fatalf("BEGIN: %d %s", code, raw)
	}
	b1, _ := jsonPath(r1, "baton").(string)
	if b1 == "" {
		t.Fatalf("no baton in %s", raw)
	}
	table := uniqueName("baton")
	code, r2, raw := exec(b1, "CREATE TABLE "+table+" (v)")
	b2, _ := jsonPath(r2, "baton").(string)
	if code != http.StatusOK || b2 == "" || b2 == b1 {
		t.Fatalf("second request: %d %s (baton %q after %q)", code, raw, b2, b1)
	}
	if code, _, raw := exec(b1, "SELECT 1"); code != http.StatusBadRequest {
		t.Errorf("reused baton: %d %s, want 400", code, raw)
	}
	if code, _, raw := exec("garbage", "SELECT 1"); code != http.StatusBadRequest {
		t.Errorf("forged baton: %d %s, want 400", code, raw)
	}
	// Other streams do not see the uncommitted table.
	if code, _, raw := exec(nil, "SELECT * FROM "+table); code != http.StatusOK || !strings.Contains(raw, "no such table") {
		t.Errorf("uncommitted table visible: %d %s", code, raw)
	}
	// A rejected baton does not end the stream: the current baton still
	// works (as in sqld), and rolling back releases the write lock.
	b, _ := json.Marshal(map[string]any{"baton": b2, "requests": []any{
		map[string]any{"type": "execute", "stmt": map[string]any{"sql": "ROLLBACK"}},
		map[string]any{"type": "close"},
	}})
	code, r3, raw := post(t, tgt, "/v2/pipeline", string(b))
	if code != http.StatusOK || jsonPath(r3, "results", 0, "type") != "ok" || jsonPath(r3, "baton") != nil {
		t.Errorf("rollback and close with the current baton: %d %s", code, raw)
	}
}

func TestStoredSQLDescribeSequence(t *testing.T) {
	tgt := startTarget(t)
	table := uniqueName("seq")
	body := strings.ReplaceAll(`{"baton": null, "requests": [
		{"type": "sequence", "sql": "CREATE TABLE seq_t (a INTEGER, b TEXT); INSERT INTO seq_t VALUES (1, 'x'); INSERT INTO seq_t VALUES (2, 'y');"},
		{"type": "store_sql", "sql_id": 7, "sql": "SELECT a, b FROM seq_t WHERE a >= :min ORDER BY a"},
		{"type": "execute", "stmt": {"sql_id": 7, "named_args": [{"name": ":min", "value": {"type": "integer", "value": "2"}}]}},
		{"type": "execute", "stmt": {"sql_id": 7, "named_args": [{"name": "min", "value": {"type": "integer", "value": "1"}}]}},
		{"type": "describe", "sql_id": 7},
		{"type": "close_sql", "sql_id": 7},
		{"type": "sequence", "sql": "INSERT INTO seq_t VALUES (3, 'z'); INSERT INTO no_such_table VALUES (1); INSERT INTO seq_t VALUES (4, 'w')"},
		{"type": "execute", "stmt": {"sql": "SELECT count(*) FROM seq_t", "want_rows": true}},
		{"type": "execute", "stmt": {"sql": "SELECT 1; SELECT 2"}},
		{"type": "execute", "stmt": {"sql": "  -- nothing\n"}}
	]}`, "seq_t", table)
	code, resp, raw := post(t, tgt, "/v2/pipeline", body)
	if code != http.StatusOK {
		t.Fatalf("status %d: %s", code, raw)
	}
	res := func(i int, path ...any) any {
		return jsonPath(resp, append([]any{"results", i}, path...)...)
	}
	for i := 0; i <= 5; i++ {
		if res(i, "type") != "ok" {
			t.Errorf("request %d: %v", i, res(i))
		}
	}
	if got := len(jsonPath(res(2, "response", "result"), "rows").([]any)); got != 1 {
		t.Errorf("named arg with prefix: %d rows, want 1", got)
	}
	if got := len(jsonPath(res(3, "response", "result"), "rows").([]any)); got != 2 {
		t.Errorf("named arg without prefix: %d rows, want 2", got)
	}
	describe := res(4, "response", "result")
	if jsonPath(describe, "params", 0, "name") != ":min" || jsonPath(describe, "cols", 0, "name") != "a" ||
		jsonPath(describe, "cols", 0, "decltype") != "INTEGER" || jsonPath(describe, "is_readonly") != true {
		t.Errorf("describe = %v", describe)
	}
	if res(6, "type") != "error" {
		t.Errorf("sequence with a bad statement: %v", res(6))
	}
	if got := res(7, "response", "result", "rows", 0, 0, "value"); got != "3" {
		t.Errorf("rows after the failed sequence = %v, want 3 (it stops at the error)", got)
	}
	if res(8, "type") != "error" || res(9, "type") != "error" {
		t.Errorf("execute with two or zero statements: %v / %v", res(8), res(9))
	}

	// An unknown sql_id is a protocol error: the whole request fails.
	code, _, raw = post(t, tgt, "/v2/pipeline", `{"baton": null, "requests": [{"type": "execute", "stmt": {"sql_id": 99}}]}`)
	if code != http.StatusBadRequest {
		t.Errorf("unknown sql_id: %d %s, want 400", code, raw)
	}
}

func TestGetAutocommitAndCursor(t *testing.T) {
	tgt := startTarget(t)
	code, resp, raw := post(t, tgt, "/v3/pipeline", `{"baton": null, "requests": [
		{"type": "get_autocommit"},
		{"type": "execute", "stmt": {"sql": "BEGIN"}},
		{"type": "get_autocommit"},
		{"type": "execute", "stmt": {"sql": "ROLLBACK"}}
	]}`)
	if code != http.StatusOK {
		t.Fatalf("status %d: %s", code, raw)
	}
	if jsonPath(resp, "results", 0, "response", "is_autocommit") != true || jsonPath(resp, "results", 2, "response", "is_autocommit") != false {
		t.Errorf("autocommit states: %s", raw)
	}
	baton, _ := jsonPath(resp, "baton").(string)

	req, _ := http.NewRequest("POST", tgt.url+"/v3/cursor", strings.NewReader(`{"baton": "`+baton+`", "batch": {"steps": [
		{"stmt": {"sql": "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r WHERE i < 3) SELECT i FROM r"}},
		{"stmt": {"sql": "SELECT * FROM no_such_table"}}]}}`))
	if tgt.token != "" {
		req.Header.Set("Authorization", "Bearer "+tgt.token)
	}
	hresp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer hresp.Body.Close()
	if hresp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(hresp.Body)
		t.Fatalf("cursor: %d %s", hresp.StatusCode, b)
	}
	var types []string
	sc := bufio.NewScanner(hresp.Body)
	first := true
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(bytes.TrimSpace(sc.Bytes()), &m); err != nil {
			t.Fatalf("cursor line %q: %v", sc.Text(), err)
		}
		if first {
			if _, ok := m["baton"]; !ok {
				t.Fatalf("first cursor line has no baton: %v", m)
			}
			first = false
			continue
		}
		types = append(types, m["type"].(string))
	}
	want := "step_begin row row row step_end step_error"
	if got := strings.Join(types, " "); got != want {
		t.Errorf("cursor entries = %q, want %q", got, want)
	}
}
