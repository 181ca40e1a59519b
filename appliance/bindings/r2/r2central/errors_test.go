package r2central

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

	"github.com/dwk/fleet/appliance/worker"
)

// openAt returns a Bucket on the store at endpoint with a short timeout.
func openAt(t *testing.T, endpoint string, timeout time.Duration) *Bucket {
	t.Helper()
	b, err := Open(t.Context(), Config{
		Endpoint: endpoint, Bucket: "b", AccessKey: "ak", SecretKey: "sk",
		PathStyle: true, Timeout: timeout,
	})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return b
}

// wantUnavailable fails t unless err is an *UnavailableError for op and key.
func wantUnavailable(t *testing.T, err error, op, key string) {
	t.Helper()
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	var ue *UnavailableError
	if !errors.As(err, &ue) || ue.Op != op || ue.Key != key {
		t.Fatalf("err = %#v, want an *UnavailableError for %s %q", err, op, key)
	}
	if !strings.Contains(err.Error(), op) || !strings.Contains(err.Error(), key) {
		t.Errorf("message %q does not name %s and %q", err, op, key)
	}
}

// hangingStore answers nothing until the test ends.
func hangingStore(t *testing.T) *httptest.Server {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	return srv
}

func TestUnreachableStore(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	const timeout = 5 * time.Second
	b := openAt(t, "http://"+addr, timeout)
	start := time.Now()
	_, err = b.Head(t.Context(), "some/key")
	wantUnavailable(t, err, "head", "some/key")
	if took := time.Since(start); took > timeout {
		t.Errorf("Head took %v, more than the %v deadline", took, timeout)
	}
	_, err = b.Put(t.Context(), "k", strings.NewReader("x"), nil)
	wantUnavailable(t, err, "put", "k")
	_, err = b.List(t.Context(), nil)
	wantUnavailable(t, err, "list", "")
}

func TestSlowStore(t *testing.T) {
	const timeout = 300 * time.Millisecond
	b := openAt(t, hangingStore(t).URL, timeout)
	tests := []struct {
		op  string
		run func(ctx context.Context) error
	}{
		{"head", func(ctx context.Context) error { _, err := b.Head(ctx, "k"); return err }},
		{"get", func(ctx context.Context) error { _, err := b.Get(ctx, "k", nil); return err }},
		{"put", func(ctx context.Context) error { _, err := b.Put(ctx, "k", strings.NewReader("x"), nil); return err }},
		{"delete", func(ctx context.Context) error { return b.Delete(ctx, "k") }},
	}
	for _, tt := range tests {
		t.Run(tt.op, func(t *testing.T) {
			start := time.Now()
			err := tt.run(t.Context())
			wantUnavailable(t, err, tt.op, "k")
			if took := time.Since(start); took > timeout+2*time.Second {
				t.Errorf("%s took %v with a %v deadline", tt.op, took, timeout)
			}
		})
	}
}

func TestCallerCancelIsNotUnavailable(t *testing.T) {
	b := openAt(t, hangingStore(t).URL, time.Minute)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, err := b.Head(ctx, "k")
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrUnavailable) {
		t.Errorf("err = %v, want the caller's context.DeadlineExceeded and not ErrUnavailable", err)
	}
}

func TestFailingStoreIsRetried(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	t.Cleanup(srv.Close)
	b := openAt(t, srv.URL, 10*time.Second)
	_, err := b.Head(t.Context(), "k")
	wantUnavailable(t, err, "head", "k")
	if got := requests.Load(); got != DefaultMaxAttempts {
		t.Errorf("%d requests, want %d attempts", got, DefaultMaxAttempts)
	}
}

func TestStatusErrors(t *testing.T) {
	tests := []struct {
		status int
		want   error
	}{
		{http.StatusForbidden, ErrAccessDenied},
		{http.StatusNotFound, worker.ErrNotFound},
		{http.StatusPreconditionFailed, worker.ErrPreconditionFailed},
	}
	for _, tt := range tests {
		t.Run(http.StatusText(tt.status), func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
			}))
			t.Cleanup(srv.Close)
			_, err := openAt(t, srv.URL, 5*time.Second).Head(t.Context(), "k")
			if !errors.Is(err, tt.want) || errors.Is(err, ErrUnavailable) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

// TestGetBodyOutlivesTimeout checks that the timeout bounds the wait for a
// Get's headers, not the reading of its body.
func TestGetBodyOutlivesTimeout(t *testing.T) {
	const timeout = 200 * time.Millisecond
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "2")
		w.Header().Set("ETag", `"0123456789abcdef0123456789abcdef"`)
		w.Header().Set("Last-Modified", time.Now().UTC().Format(http.TimeFormat))
		w.WriteHeader(http.StatusOK)
		w.Write([]byte("a"))
		w.(http.Flusher).Flush()
		select {
		case <-time.After(2 * timeout):
		case <-r.Context().Done():
			return
		}
		w.Write([]byte("b"))
	}))
	t.Cleanup(srv.Close)
	o, err := openAt(t, srv.URL, timeout).Get(t.Context(), "k", nil)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	defer o.Body.Close()
	got, err := io.ReadAll(o.Body)
	if err != nil || string(got) != "ab" {
		t.Errorf("body = %q, %v; want %q", got, err, "ab")
	}
}
