package hranaclient

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// Tests against fake servers: failure classification and retry rules that a
// real server cannot be made to exhibit on demand.

func newClient(t *testing.T, url string, cfg Config) *Client {
	t.Helper()
	cfg.URL = url
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func okBatch(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"baton":null,"base_url":null,"results":[
		{"type":"ok","response":{"type":"batch","result":{"step_results":[{"cols":[],"rows":[],"affected_row_count":0,"last_insert_rowid":null}],"step_errors":[null]}}},
		{"type":"ok","response":{"type":"close"}}]}`)
}

func TestDialErrorIsRetriedAndUnavailable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens: every dial fails
	var hook atomic.Int64
	c := newClient(t, "http://"+addr, Config{OnRoundTrip: func() { hook.Add(1) }})
	_, err = c.Batch(context.Background(), []hrana.BatchStep{{Stmt: hrana.NewStmt("SELECT 1")}})
	if !errors.Is(err, ErrUnavailable) || errors.Is(err, ErrOutcomeUnknown) {
		t.Fatalf("err = %v; want ErrUnavailable without ErrOutcomeUnknown", err)
	}
	if !strings.Contains(err.Error(), "batch") {
		t.Errorf("error %q does not name the operation", err)
	}
	if got := c.RoundTrips(); got != 3 {
		t.Errorf("RoundTrips = %d, want 3 attempts", got)
	}
	if hook.Load() != 3 {
		t.Errorf("OnRoundTrip called %d times, want 3", hook.Load())
	}
}

func TestLostResponseIsOutcomeUnknownAndNotRetried(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		io.ReadAll(r.Body)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close() // the request arrived; the answer never will
		}
	}))
	defer srv.Close()
	c := newClient(t, srv.URL, Config{})
	_, err := c.Batch(context.Background(), nil)
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, ErrOutcomeUnknown) {
		t.Fatalf("err = %v; want ErrUnavailable and ErrOutcomeUnknown", err)
	}
	var terr *TransportError
	if !errors.As(err, &terr) || !terr.Sent || terr.Op != "batch" {
		t.Errorf("err = %#v; want a sent *TransportError for batch", err)
	}
	if calls.Load() != 1 || c.RoundTrips() != 1 {
		t.Errorf("server saw %d requests, client counted %d; want 1 and 1 (no blind retry)", calls.Load(), c.RoundTrips())
	}
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	c := newClient(t, srv.URL, Config{Timeout: 100 * time.Millisecond})
	start := time.Now()
	_, err := c.Execute(context.Background(), hrana.NewStmt("SELECT 1"))
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrUnavailable) || !errors.Is(err, ErrOutcomeUnknown) {
		t.Fatalf("err = %v; want deadline exceeded, unavailable, outcome unknown", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("timeout took %s", d)
	}
}

func TestCallerCancelIsNotUnavailable(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { okBatch(w) }))
	defer srv.Close()
	c := newClient(t, srv.URL, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.Batch(ctx, nil)
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v; want context.Canceled and not ErrUnavailable", err)
	}
}

func TestHeadersAndV2Fallback(t *testing.T) {
	var v3, v2 atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v3/pipeline", func(w http.ResponseWriter, r *http.Request) {
		v3.Add(1)
		http.NotFound(w, r)
	})
	mux.HandleFunc("POST /v2/pipeline", func(w http.ResponseWriter, r *http.Request) {
		v2.Add(1)
		if got := r.Header.Get("Authorization"); got != "Bearer tok" {
			t.Errorf("Authorization = %q", got)
		}
		if got := r.Header.Get("x-namespace"); got != "ns1" {
			t.Errorf("x-namespace = %q", got)
		}
		okBatch(w)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := newClient(t, srv.URL+"/", Config{AuthToken: "tok", Namespace: "ns1"})
	for range 2 {
		res, err := c.Batch(context.Background(), []hrana.BatchStep{{Stmt: hrana.NewStmt("SELECT 1")}})
		if err != nil || !StepRan(res, 0) {
			t.Fatalf("Batch = %+v, %v", res, err)
		}
	}
	if v3.Load() != 1 || v2.Load() != 2 {
		t.Errorf("v3 requests %d, v2 requests %d; want 1 then v2 for good", v3.Load(), v2.Load())
	}
}

func TestHTTPErrors(t *testing.T) {
	tests := []struct {
		status      int
		body        string
		code        string
		unavailable bool
		unknown     bool
	}{
		{401, `{"error":"Unauthorized","message":"Unauthorized","code":"AUTH_JWT_INVALID"}`, "AUTH_JWT_INVALID", false, false},
		{404, `{"error":"Namespace x doesn't exist","code":"NAMESPACE_NOT_FOUND"}`, "NAMESPACE_NOT_FOUND", false, false},
		{400, `{"error":"bad"}`, "", false, false},
		{503, `{"message":"shutting down","code":"SHUTTING_DOWN"}`, "SHUTTING_DOWN", true, false},
		{502, `bad gateway`, "", true, true},
	}
	for _, tt := range tests {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(tt.status)
			io.WriteString(w, tt.body)
		}))
		c := newClient(t, srv.URL, Config{})
		_, err := c.Execute(context.Background(), hrana.NewStmt("SELECT 1"))
		srv.Close()
		var he *Error
		if !errors.As(err, &he) || he.Status != tt.status || he.Code != tt.code || he.Message == "" {
			t.Errorf("%d: err = %#v; want *Error with status and code %q", tt.status, err, tt.code)
			continue
		}
		if errors.Is(err, ErrUnavailable) != tt.unavailable || errors.Is(err, ErrOutcomeUnknown) != tt.unknown {
			t.Errorf("%d: unavailable=%v unknown=%v; want %v %v", tt.status, errors.Is(err, ErrUnavailable), errors.Is(err, ErrOutcomeUnknown), tt.unavailable, tt.unknown)
		}
	}
}

func TestMalformedResponseIsOutcomeUnknown(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"baton":null,"results":[]}`)
	}))
	defer srv.Close()
	_, err := newClient(t, srv.URL, Config{}).Batch(context.Background(), nil)
	if !errors.Is(err, ErrOutcomeUnknown) {
		t.Fatalf("err = %v, want ErrOutcomeUnknown", err)
	}
}

func TestConfigValidate(t *testing.T) {
	for _, u := range []string{"", "ftp://x", "http://", "::"} {
		if _, err := New(Config{URL: u}); err == nil {
			t.Errorf("New(%q) succeeded", u)
		}
	}
	for in, want := range map[string]string{
		"libsql://db-org.turso.io": "https://db-org.turso.io",
		"ws://127.0.0.1:8080/":     "http://127.0.0.1:8080",
		"https://h/base/?q=1":      "https://h/base",
	} {
		c, err := New(Config{URL: in})
		if err != nil || c.base != want {
			t.Errorf("New(%q).base = %v, %v; want %q", in, c, err, want)
		}
	}
}
