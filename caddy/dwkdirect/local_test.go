package dwkdirect

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"

	"github.com/dwk/fleet/appliance/fleet/protocol"
	"github.com/dwk/fleet/caddy/dwkaffinity"
)

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
	replay := d.serveLocal(rec, httptest.NewRequest(http.MethodGet, "http://front/counter/a", nil), dwkaffinity.Target{})
	if replay || rec.Code != http.StatusGatewayTimeout {
		t.Fatalf("replay %v, client got %d %q", replay, rec.Code, rec.Body.String())
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
	if d.serveLocal(rec, httptest.NewRequest(http.MethodGet, "http://front/", nil), dwkaffinity.Target{}) {
		t.Error("a started answer is replayed")
	}
	if rec.Code != http.StatusOK || rec.Body.String() != "started and finished" {
		t.Errorf("client got %d %q", rec.Code, rec.Body.String())
	}
}

// TestServeLocalGivesUpThroughTheConnection serves in process behind a
// server with ConnContext: requests on a kept-alive connection keep live
// contexts, and an app that does not answer sees its context cancelled,
// its client a 504 that closes the connection, and the next request a
// fresh connection.
func TestServeLocalGivesUpThroughTheConnection(t *testing.T) {
	cancelled := make(chan struct{})
	d := &Direct{ResponseTimeout: caddy.Duration(100 * time.Millisecond), app: &App{h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			select {
			case <-r.Context().Done():
				close(cancelled)
			case <-time.After(5 * time.Second): // the test fails below
			}
			return
		}
		if err := r.Context().Err(); err != nil {
			t.Errorf("%s: context ended: %v", r.URL.Path, err)
		}
		io.WriteString(w, "ok")
	})}}
	s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if d.serveLocal(w, r, dwkaffinity.Target{}) {
			t.Errorf("%s: replayed", r.URL.Path)
		}
	}))
	s.Config.ConnContext = ConnContext
	s.Start()
	defer s.Close()

	var conns []string
	get := func(path string) int {
		t.Helper()
		var local string
		ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
			GotConn: func(i httptrace.GotConnInfo) { local = i.Conn.LocalAddr().String() },
		})
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+path, nil)
		res, err := s.Client().Do(req)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		conns = append(conns, local)
		return res.StatusCode
	}
	if a, b := get("/a"), get("/b"); a != http.StatusOK || b != http.StatusOK || conns[0] != conns[1] {
		t.Fatalf("kept-alive requests: %d %d on %v", a, b, conns)
	}
	if code := get("/slow"); code != http.StatusGatewayTimeout {
		t.Fatalf("/slow: %d, want 504", code)
	}
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the app's context was not cancelled")
	}
	if code := get("/c"); code != http.StatusOK || conns[3] == conns[2] {
		t.Errorf("after the 504: %d on %v (want a new connection)", code, conns)
	}
}

func TestServeLocalReplaysRetryAnswersWithTheBody(t *testing.T) {
	for _, c := range []struct {
		name       string
		limit      int64
		wantReplay bool
	}{{"kept", DefaultReplayBody, true}, {"over the limit", 4, false}} {
		var objectID string
		d := &Direct{ResponseTimeout: caddy.Duration(time.Minute), ReplayBody: c.limit, app: &App{h: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			objectID = r.Header.Get(protocol.ObjectIDHeader)
			io.ReadAll(r.Body)
			w.Header().Set("X-Local", "1")
			protocol.WriteRetry(w)
		})}}
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "http://front/counter/a", strings.NewReader("payload"))
		req.Header.Set(protocol.ObjectIDHeader, "forged")
		replay := d.serveLocal(rec, req, target)
		if objectID != target.ID.String() {
			t.Errorf("%s: the app saw object id %q, want %s", c.name, objectID, target.ID)
		}
		if replay != c.wantReplay {
			t.Fatalf("%s: replay %v, want %v", c.name, replay, c.wantReplay)
		}
		if rec.Header().Get("X-Local") != "" {
			t.Errorf("%s: the retry answer's headers reached the client: %v", c.name, rec.Header())
		}
		if replay {
			if body, _ := io.ReadAll(req.Body); string(body) != "payload" || rec.Body.Len() != 0 {
				t.Errorf("%s: replayed body %q, client got %q", c.name, body, rec.Body.String())
			}
		} else if rec.Code != http.StatusServiceUnavailable || rec.Header().Get(protocol.RetryHeader) == "" {
			t.Errorf("%s: client got %d %v, want the retry answer", c.name, rec.Code, rec.Header())
		}
	}
}
