package d1central

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// refusedURL returns the URL of a port nothing listens on.
func refusedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

// hangingURL returns the URL of a server that reads requests and never
// answers until the client gives up.
func hangingURL(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Reading the body lets the server notice the client hanging up.
		io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// wantStoreError checks that err is a *worker.D1Error for statement index
// wrapping a *StoreError for op that matches each of is and none of isNot.
func wantStoreError(t *testing.T, err error, index int, op string, is, isNot []error) {
	t.Helper()
	var de *worker.D1Error
	if !errors.As(err, &de) || de.Index != index {
		t.Fatalf("error %v (%T), want a *worker.D1Error for statement %d", err, err, index)
	}
	var se *StoreError
	if !errors.As(err, &se) || se.Op != op || se.Namespace == "" {
		t.Errorf("error %v, want a *StoreError for %q naming the namespace", err, op)
	}
	for _, target := range is {
		if !errors.Is(err, target) {
			t.Errorf("error %v does not match %v", err, target)
		}
	}
	for _, target := range isNot {
		if errors.Is(err, target) {
			t.Errorf("error %v matches %v, want not", err, target)
		}
	}
}

// TestUnavailable calls a server that refuses connections and one that
// never answers: every call fails within its deadline with ErrUnavailable,
// and only writes that may have reached the server have an unknown
// outcome.
func TestUnavailable(t *testing.T) {
	const timeout = 500 * time.Millisecond
	write := []worker.D1Query{{SQL: "INSERT INTO t (v) VALUES (?)", Args: []any{"x"}}, {SQL: "SELECT 1"}}
	read := []worker.D1Query{{SQL: "SELECT 1"}}
	tests := []struct {
		name    string
		url     string
		stmts   []worker.D1Query
		unknown bool
	}{
		{"refused write", refusedURL(t), write, false},
		{"refused read", refusedURL(t), read, false},
		{"hanging write", hangingURL(t), write, true},
		{"hanging read", hangingURL(t), read, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := openConfig(t, Config{URL: tt.url, Namespace: "test-d1-down", Timeout: timeout})
			start := time.Now()
			_, err := db.Batch(t.Context(), tt.stmts)
			elapsed := time.Since(start)
			// A read that got no answer may match ErrOutcomeUnknown too,
			// harmlessly; a write that certainly never left must not.
			is, isNot := []error{ErrUnavailable}, []error(nil)
			switch {
			case tt.unknown:
				is = append(is, ErrOutcomeUnknown)
			case tt.stmts[0].SQL != "SELECT 1":
				isNot = []error{ErrOutcomeUnknown}
			}
			wantStoreError(t, err, len(tt.stmts)-1, "batch", is, isNot)
			if elapsed > timeout+2*time.Second {
				t.Errorf("failed after %v, want within the %v deadline", elapsed, timeout)
			}
			start = time.Now()
			res, err := db.Exec(t.Context(), "SELECT 1; SELECT 2")
			wantStoreError(t, err, 0, "exec", []error{ErrUnavailable}, nil)
			if res.Count != 0 || time.Since(start) > timeout+2*time.Second {
				t.Errorf("Exec: %d statements after %v, want 0 within the deadline", res.Count, time.Since(start))
			}
		})
	}
}

// TestCreateNamespaceFailure checks that a failing namespace hook fails
// the call with a *StoreError and is tried again by the next call.
func TestCreateNamespaceFailure(t *testing.T) {
	e := startEnv(t)
	cfg := e.config(t)
	create := cfg.CreateNamespace
	var calls atomic.Int32
	cfg.CreateNamespace = func(ctx context.Context, ns string) error {
		if calls.Add(1) == 1 {
			return errBoom
		}
		return create(ctx, ns)
	}
	db := openConfig(t, cfg)
	q := []worker.D1Query{{SQL: "SELECT 1"}}
	if _, err := db.Batch(t.Context(), q); !errors.Is(err, errBoom) {
		t.Fatalf("first call: %v, want the hook's error", err)
	} else {
		wantStoreError(t, err, 0, "create namespace", nil, nil)
	}
	if _, err := db.Batch(t.Context(), q); err != nil {
		t.Fatalf("second call: %v", err)
	}
	if _, err := db.Batch(t.Context(), q); err != nil || calls.Load() != 2 {
		t.Fatalf("third call: %v after %d hook calls, want success and 2 calls", err, calls.Load())
	}
}

var errBoom = errors.New("boom")

// dropProxy forwards requests to a libSQL server; for the next drop
// requests it forwards the request, lets the server run it, and then
// breaks the connection instead of answering: a lost response.
type dropProxy struct {
	proxy *httputil.ReverseProxy
	drop  atomic.Int32
}

func newDropProxy(t *testing.T, target string) (*dropProxy, string) {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &dropProxy{proxy: httputil.NewSingleHostReverseProxy(u)}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return p, srv.URL
}

func (p *dropProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if p.drop.Add(-1) < 0 {
		p.drop.Add(1)
		p.proxy.ServeHTTP(w, r)
		return
	}
	p.proxy.ServeHTTP(httptest.NewRecorder(), r)
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err)
	}
	conn.Close()
}

// TestLostResponse runs statements whose response is lost after the
// server ran them: a write is not retried and reports an unknown outcome
// (and was applied exactly once); a read is retried and succeeds.
func TestLostResponse(t *testing.T) {
	e := startEnv(t)
	proxy, proxyURL := newDropProxy(t, e.srv.URL)
	db := e.open(t, func(c *Config) { c.URL = proxyURL; c.RetryBackoff = time.Millisecond })
	d := worker.NewD1(db)
	ctx := t.Context()
	if _, err := d.Exec(ctx, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"); err != nil {
		t.Fatal(err)
	}

	proxy.drop.Store(1)
	before := db.RoundTrips()
	_, err := d.Batch(ctx, d.Prepare("INSERT INTO t (v) VALUES (?)").Bind("once"), d.Prepare("SELECT 1"))
	wantStoreError(t, err, 1, "batch", []error{ErrUnavailable, ErrOutcomeUnknown}, nil)
	if got := db.RoundTrips() - before; got != 1 {
		t.Errorf("write with a lost response: %d round trips, want 1 (no retry)", got)
	}

	proxy.drop.Store(1)
	before = db.RoundTrips()
	row, err := d.Prepare("SELECT count(*) AS n FROM t WHERE v = 'once'").First(ctx)
	if err != nil {
		t.Fatalf("read with a lost response: %v, want a successful retry", err)
	}
	if row["n"] != int64(1) {
		t.Errorf("the write with the lost response landed %v times, want 1", row["n"])
	}
	if got := db.RoundTrips() - before; got != 2 {
		t.Errorf("read with a lost response: %d round trips, want 2 (one retry)", got)
	}

	proxy.drop.Store(1)
	res, err := d.Exec(ctx, "INSERT INTO t (v) VALUES ('exec'); SELECT 1")
	wantStoreError(t, err, 0, "exec", []error{ErrOutcomeUnknown}, nil)
	if res.Count != 0 {
		t.Errorf("Exec with a lost response: Count %d, want 0", res.Count)
	}
}
