package dwkdirect

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/appliance/fleet/protocol"
	"github.com/dwk/fleet/caddy/dwkaffinity"
)

// newTestDirect is a Direct with the forwarder's parts only.
func newTestDirect(response time.Duration) *Direct {
	return &Direct{
		ReplayBody: DefaultReplayBody,
		transport:  newTransport(time.Second, response, nil),
		fails:      &fails{window: time.Second, max: 2},
		log:        zap.NewNop(),
	}
}

var target = dwkaffinity.Target{Namespace: "Counter", ID: objectid.FromName([]byte("secret"), "Counter", "a")}

// replay records what the reverse proxy would have been handed.
type replay struct {
	called bool
	tried  string
	body   string
}

func (p *replay) fn(w http.ResponseWriter, r *http.Request, tried string) error {
	p.called, p.tried = true, tried
	if r.Body != nil {
		b, _ := io.ReadAll(r.Body)
		p.body = string(b)
	}
	w.WriteHeader(http.StatusTeapot)
	return nil
}

func member(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return strings.TrimPrefix(s.URL, "http://")
}

func TestForwardRelaysTheAnswer(t *testing.T) {
	var got *http.Request
	var body string
	dial := member(t, func(w http.ResponseWriter, r *http.Request) {
		got = r
		b, _ := io.ReadAll(r.Body)
		body = string(b)
		w.Header().Set("X-Dwk-Member", "m2")
		w.Header().Set("Trailer", "X-Sum")
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, "made")
		w.Header().Set("X-Sum", "42")
	})
	d := newTestDirect(time.Second)
	req := httptest.NewRequest(http.MethodPost, "http://front/counter/a/increment?x=1", strings.NewReader("payload"))
	req.Header.Set("Connection", "close, X-Hop")
	req.Header.Set("X-Hop", "drop me")
	req.Header.Set(protocol.ObjectIDHeader, "forged")
	rec := httptest.NewRecorder()
	var p replay
	if err := d.forward(rec, req, "m2", dial, target, nil, p.fn); err != nil || p.called {
		t.Fatalf("forward: %v, replayed %v", err, p.called)
	}
	if rec.Code != http.StatusCreated || rec.Body.String() != "made" || rec.Header().Get("X-Dwk-Member") != "m2" {
		t.Errorf("client got %d %q %v", rec.Code, rec.Body.String(), rec.Header())
	}
	if rec.Result().Trailer.Get("X-Sum") != "42" && rec.Header().Get(http.TrailerPrefix+"X-Sum") != "42" {
		t.Errorf("trailer lost: %v", rec.Header())
	}
	if body != "payload" || got.URL.RequestURI() != "/counter/a/increment?x=1" || got.Host != "front" {
		t.Errorf("member got %s %s host %s body %q", got.Method, got.URL.RequestURI(), got.Host, body)
	}
	if got.Header.Get("X-Hop") != "" || got.Header.Get(protocol.ObjectIDHeader) != target.ID.String() || got.Header.Get("X-Forwarded-Host") != "front" {
		t.Errorf("member got headers %v", got.Header)
	}
}

func TestForwardReplaysRetryAnswersWithTheBody(t *testing.T) {
	dial := member(t, func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body) // a member that read the body before answering
		protocol.WriteRetry(w)
	})
	d := newTestDirect(time.Second)
	req := httptest.NewRequest(http.MethodPost, "http://front/counter/a/increment", strings.NewReader("payload"))
	rec := httptest.NewRecorder()
	var p replay
	if err := d.forward(rec, req, "m2", dial, target, nil, p.fn); err != nil {
		t.Fatal(err)
	}
	if !p.called || p.tried != dial || p.body != "payload" || rec.Code != http.StatusTeapot {
		t.Errorf("replay %+v, client got %d", p, rec.Code)
	}
}

func TestForwardOverTheReplayLimitPassesTheRetryAnswerOn(t *testing.T) {
	dial := member(t, func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		protocol.WriteRetry(w)
	})
	d := newTestDirect(time.Second)
	d.ReplayBody = 4
	req := httptest.NewRequest(http.MethodPost, "http://front/counter/a/increment", strings.NewReader("payload"))
	rec := httptest.NewRecorder()
	var p replay
	d.forward(rec, req, "m2", dial, target, nil, p.fn)
	if p.called || rec.Code != http.StatusServiceUnavailable || rec.Header().Get(protocol.RetryHeader) != protocol.RetryValue {
		t.Errorf("replayed %v; client got %d %v", p.called, rec.Code, rec.Header())
	}
}

func TestForwardDialErrorsAreReplayed(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	dial := ln.Addr().String()
	ln.Close()
	d := newTestDirect(time.Second)
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		req := httptest.NewRequest(method, "http://front/counter/a", strings.NewReader("x"))
		rec := httptest.NewRecorder()
		var p replay
		d.forward(rec, req, "m2", dial, target, nil, p.fn)
		if !p.called || p.tried != dial {
			t.Errorf("%s to a closed port: replay %+v, client got %d", method, p, rec.Code)
		}
	}
	if !d.fails.down(dial) {
		t.Error("two failed dials did not take the member out of forwarding")
	}
}

func TestForwardTimeoutIsAGatewayTimeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	dial := member(t, func(w http.ResponseWriter, r *http.Request) { <-release })
	d := newTestDirect(200 * time.Millisecond)
	req := httptest.NewRequest(http.MethodGet, "http://front/counter/a", nil)
	rec := httptest.NewRecorder()
	var p replay
	d.forward(rec, req, "m2", dial, target, nil, p.fn)
	if p.called || rec.Code != http.StatusGatewayTimeout {
		t.Errorf("replayed %v; client got %d", p.called, rec.Code)
	}
}

func TestForwardBrokenConnection(t *testing.T) {
	dial := member(t, func(w http.ResponseWriter, r *http.Request) {
		c, _, _ := http.NewResponseController(w).Hijack()
		c.Close()
	})
	d := newTestDirect(time.Second)
	get := httptest.NewRequest(http.MethodGet, "http://front/counter/a", nil)
	rec := httptest.NewRecorder()
	var p replay
	d.forward(rec, get, "m2", dial, target, nil, p.fn)
	if !p.called {
		t.Errorf("a GET whose connection broke was not replayed; client got %d", rec.Code)
	}
	post := httptest.NewRequest(http.MethodPost, "http://front/counter/a/increment", strings.NewReader("x"))
	rec = httptest.NewRecorder()
	p = replay{}
	d.forward(rec, post, "m2", dial, target, nil, p.fn)
	if p.called || rec.Code != http.StatusBadGateway {
		t.Errorf("a POST whose connection broke: replayed %v, client got %d (it may have run: 502, not a replay)", p.called, rec.Code)
	}
}
