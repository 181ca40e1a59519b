package dwkdirect

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"

	"github.com/dwk/fleet/appliance/fleet/protocol"
	"github.com/dwk/fleet/caddy/dwkaffinity"
)

func TestRetryCatcherSwallowsRetryAnswers(t *testing.T) {
	rec := httptest.NewRecorder()
	rec.Header().Set("Server", "front door")
	c := &retryCatcher{w: rec}
	c.Header().Set("X-Local", "1")
	protocol.WriteRetry(c)
	if !c.retry {
		t.Fatal("a retry answer was not caught")
	}
	if rec.Code != http.StatusOK || rec.Body.Len() != 0 || rec.Header().Get("X-Local") != "" || rec.Header().Get("Server") != "front door" {
		t.Errorf("the client saw the retry answer: %d %q %v", rec.Code, rec.Body.String(), rec.Header())
	}
}

func TestRetryCatcherPassesOtherAnswers(t *testing.T) {
	for _, code := range []int{http.StatusOK, http.StatusServiceUnavailable, http.StatusNotFound} {
		rec := httptest.NewRecorder()
		c := &retryCatcher{w: rec}
		c.Header().Set("X-Local", "1")
		c.WriteHeader(code)
		io.WriteString(c, "body")
		if c.retry || rec.Code != code || rec.Body.String() != "body" || rec.Header().Get("X-Local") != "1" {
			t.Errorf("%d: retry=%v, client got %d %q %v", code, c.retry, rec.Code, rec.Body.String(), rec.Header())
		}
	}
	rec := httptest.NewRecorder()
	c := &retryCatcher{w: rec}
	io.WriteString(c, "implicit")
	if rec.Code != http.StatusOK || rec.Body.String() != "implicit" {
		t.Errorf("implicit 200: client got %d %q", rec.Code, rec.Body.String())
	}
}

func TestReplayBody(t *testing.T) {
	src := io.NopCloser(strings.NewReader("0123456789"))
	b := &replayBody{src: src, limit: 6}
	p := make([]byte, 4)
	n, _ := b.Read(p)
	if n != 4 || b.overLimit() {
		t.Fatalf("read %d, over=%v", n, b.overLimit())
	}
	got, _ := io.ReadAll(b.replay())
	if string(got) != "0123456789" {
		t.Errorf("replay = %q, want the whole body", got)
	}
	b = &replayBody{src: io.NopCloser(strings.NewReader("0123456789")), limit: 6}
	io.ReadAll(b)
	if !b.overLimit() {
		t.Error("a body read past the limit is replayable")
	}
	if !(*replayBody)(nil).overLimit() {
		t.Error("no kept body is replayable")
	}
}

func TestReserved(t *testing.T) {
	for path, want := range map[string]bool{
		"/_dwk/internal/x": true, "/_DWK/x": true, "/a/_dwk": true, "/livez": false, "/counter/a": false,
	} {
		if got := reserved(path); got != want {
			t.Errorf("reserved(%q) = %v, want %v", path, got, want)
		}
	}
}

func TestServeLocalGivesUpOnAnAppThatDoesNotAnswer(t *testing.T) {
	cancelled := make(chan struct{})
	d := &Direct{ResponseTimeout: caddy.Duration(100 * time.Millisecond), app: &App{h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // a store call that waits for its context
		close(cancelled)
		w.WriteHeader(http.StatusInternalServerError) // too late: dropped
	})}}
	rec := httptest.NewRecorder()
	start := time.Now()
	err := d.serveLocal(rec, httptest.NewRequest(http.MethodGet, "http://front/counter/a", nil), dwkaffinity.Target{}, func(http.ResponseWriter, *http.Request) error {
		t.Error("an app given up on was replayed")
		return nil
	})
	if err != nil || rec.Code != http.StatusGatewayTimeout {
		t.Fatalf("err %v, client got %d %q", err, rec.Code, rec.Body.String())
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("answered after %v", took)
	}
	select {
	case <-cancelled:
	default:
		t.Error("the app's context was not cancelled")
	}
}

func TestServeLocalStreamsPastTheDeadlineOnceStarted(t *testing.T) {
	d := &Direct{ResponseTimeout: caddy.Duration(50 * time.Millisecond), app: &App{h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "started ")
		time.Sleep(150 * time.Millisecond)
		if r.Context().Err() != nil {
			t.Error("a started answer's context was cancelled")
		}
		io.WriteString(w, "and finished")
	})}}
	rec := httptest.NewRecorder()
	d.serveLocal(rec, httptest.NewRequest(http.MethodGet, "http://front/", nil), dwkaffinity.Target{}, nil)
	if rec.Code != http.StatusOK || rec.Body.String() != "started and finished" {
		t.Errorf("client got %d %q", rec.Code, rec.Body.String())
	}
}
