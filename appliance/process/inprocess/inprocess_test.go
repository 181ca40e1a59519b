package inprocess

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func get(t *testing.T, ctx context.Context, h http.Handler) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, "http://svc/path?q=1", strings.NewReader("in"))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-In", "yes")
	return RoundTrip(ctx, h, req)
}

func TestRoundTrip(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Echo", r.Header.Get("X-In")+" "+r.URL.RequestURI()+" "+string(b))
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, "out")
		w.Header().Set("X-Late", "ignored")
	})
	resp, err := get(t, context.Background(), h)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || string(b) != "out" || resp.StatusCode != http.StatusCreated {
		t.Fatalf("got %d %q, %v; want 201 out", resp.StatusCode, b, err)
	}
	if got := resp.Header.Get("X-Echo"); got != "yes /path?q=1 in" {
		t.Errorf("X-Echo = %q", got)
	}
	if resp.Header.Get("X-Late") != "" {
		t.Error("a header set after WriteHeader was sent")
	}
}

// The response arrives while the handler still writes.
func TestStreams(t *testing.T) {
	more := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "first")
		<-more
		io.WriteString(w, " second")
	})
	resp, err := get(t, context.Background(), h)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, 5)
	if _, err := io.ReadFull(resp.Body, buf); err != nil || string(buf) != "first" {
		t.Fatalf("first read %q, %v", buf, err)
	}
	close(more)
	rest, err := io.ReadAll(resp.Body)
	if err != nil || string(rest) != " second" {
		t.Fatalf("rest %q, %v", rest, err)
	}
}

func TestPanicBeforeHeaders(t *testing.T) {
	resp, err := get(t, context.Background(), http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusInternalServerError {
		t.Fatalf("status %d, want 500", resp.StatusCode)
	}
	if _, err := io.ReadAll(resp.Body); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("body error %v, want the panic", err)
	}
}

func TestContextEndsBeforeHeaders(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := get(t, ctx, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
}

func TestEmptyHandlerAndUpgrade(t *testing.T) {
	resp, err := get(t, context.Background(), http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("empty handler: %v, %v", resp, err)
	}
	resp.Body.Close()
	req, _ := http.NewRequest(http.MethodGet, "http://svc/ws", nil)
	req.Header.Set("Upgrade", "websocket")
	if _, err := RoundTrip(context.Background(), http.NotFoundHandler(), req); !errors.Is(err, ErrUpgrade) {
		t.Fatalf("upgrade: %v, want ErrUpgrade", err)
	}
}
