package server

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"testing"
	"time"
)

// A request that reaches a connection after stop began is answered, not
// dropped: http.Server.Shutdown alone closes such a connection unanswered.
func TestStopAnswersRequestsOnTheirWay(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	slow := make(chan struct{})
	l := listen(&http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			<-slow
		}
		w.Write([]byte("ok"))
	})}, ln)
	go l.serve()

	// One connection busy with a slow request keeps stop waiting; another
	// is open and has sent nothing yet.
	busy, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	busy.Write([]byte("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n"))
	late, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer late.Close()
	time.Sleep(100 * time.Millisecond)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	stopped := make(chan error, 1)
	go func() { stopped <- l.stop(ctx) }()
	time.Sleep(100 * time.Millisecond)

	if _, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
		t.Error("a new connection was accepted after stop began")
	}
	late.Write([]byte("GET /late HTTP/1.1\r\nHost: x\r\n\r\n"))
	late.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(late), nil)
	if err != nil {
		t.Fatalf("the request sent after stop began was not answered: %v", err)
	}
	if resp.StatusCode != 200 || !resp.Close {
		t.Errorf("late request: status %d, close %v; want 200 and Connection: close", resp.StatusCode, resp.Close)
	}
	select {
	case err := <-stopped:
		t.Fatalf("stop returned (%v) while a request was in flight", err)
	default:
	}
	close(slow)
	busy.SetReadDeadline(time.Now().Add(5 * time.Second))
	if resp, err := http.ReadResponse(bufio.NewReader(busy), nil); err != nil || resp.StatusCode != 200 {
		t.Fatalf("the in-flight request was not answered: %v", err)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("stop: %v", err)
	}
}

// stop is bounded by its context.
func TestStopEndsAtItsDeadline(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := listen(&http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})}, ln)
	go l.serve()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
	time.Sleep(50 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := l.stop(ctx); err == nil {
		t.Fatal("stop returned nil with a request still in flight at its deadline")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("stop took %v past a 200ms deadline", d)
	}
}

// An idle server stops at once and without an error.
func TestStopIdle(t *testing.T) {
	for range 20 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		l := listen(&http.Server{Handler: http.NotFoundHandler()}, ln)
		go l.serve()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := l.stop(ctx); err != nil {
			t.Fatalf("stop: %v", err)
		}
		cancel()
	}
}
