package libsqlconformance

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestLimits checks dwk's limits and that their flags work; sqld has
// other limits, so this case only runs against a managed server.
func TestLimits(t *testing.T) {
	if tgt := startTarget(t); !tgt.managed {
		t.Skipf("%s is set: limit cases need control of the server's flags", envURL)
	}
	tgt := startDWK(t, "--max-body-size", "2KiB", "--max-streams", "3", "--statement-timeout", "300ms", "--busy-timeout", "100ms")

	big := `{"baton": null, "requests": [{"type": "execute", "stmt": {"sql": "SELECT '` + strings.Repeat("x", 4096) + `'"}}]}`
	code, resp, raw := post(t, tgt, "/v2/pipeline", big)
	if code != http.StatusRequestEntityTooLarge || jsonPath(resp, "code") != "BODY_TOO_LARGE" {
		t.Errorf("oversized body: %d %s, want 413 BODY_TOO_LARGE", code, raw)
	}

	open := `{"baton": null, "requests": [{"type": "execute", "stmt": {"sql": "SELECT 1"}}]}`
	var batons []string
	for i := range 3 {
		code, resp, raw := post(t, tgt, "/v2/pipeline", open)
		if code != http.StatusOK {
			t.Fatalf("stream %d: %d %s", i, code, raw)
		}
		batons = append(batons, jsonPath(resp, "baton").(string))
	}
	// A fourth stream waits for a slot (a second), then fails.
	start := time.Now()
	code, resp, raw = post(t, tgt, "/v2/pipeline", open)
	if code != http.StatusTooManyRequests || jsonPath(resp, "code") != "TOO_MANY_STREAMS" {
		t.Errorf("fourth stream: %d %s, want 429 TOO_MANY_STREAMS", code, raw)
	}
	if waited := time.Since(start); waited < 900*time.Millisecond || waited > 10*time.Second {
		t.Errorf("the fourth stream failed after %v, want about a second", waited)
	}
	// A stream closed while another waits gives it its slot.
	got := make(chan int, 1)
	go func() {
		resp, err := http.Post(tgt.url+"/v2/pipeline", "application/json", strings.NewReader(open))
		if err != nil {
			got <- 0
			return
		}
		resp.Body.Close()
		got <- resp.StatusCode
	}()
	time.Sleep(100 * time.Millisecond)
	if code, _, raw := post(t, tgt, "/v2/pipeline", `{"baton": "`+batons[0]+`", "requests": [{"type": "close"}]}`); code != http.StatusOK {
		t.Fatalf("close: %d %s", code, raw)
	}
	select {
	case code := <-got:
		if code != http.StatusOK {
			t.Errorf("the waiting stream: %d, want 200 once a stream closed", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting stream did not finish")
	}

	tgt2 := startDWK(t, "--statement-timeout", "300ms", "--busy-timeout", "100ms")
	code, resp, raw = post(t, tgt2, "/v2/pipeline", `{"baton": null, "requests": [
		{"type": "execute", "stmt": {"sql": "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r) SELECT count(*) FROM r"}},
		{"type": "execute", "stmt": {"sql": "SELECT 42"}},
		{"type": "close"}]}`)
	if code != http.StatusOK {
		t.Fatalf("endless statement: %d %s", code, raw)
	}
	if jsonPath(resp, "results", 0, "error", "code") != "SQLITE_INTERRUPT" || !strings.Contains(raw, "statement timeout") {
		t.Errorf("endless statement: %s, want SQLITE_INTERRUPT mentioning the statement timeout", raw)
	}
	if jsonPath(resp, "results", 1, "response", "result", "rows", 0, 0, "value") != "42" {
		t.Errorf("the stream does not work after the interrupt: %s", raw)
	}
}
