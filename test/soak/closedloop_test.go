package soak

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// TestClosedLoopMeasures: a door that answers 503 for a while and then
// 200 leaves the client without its object from its first failed request
// to the next acknowledged one, and a slow answer is its longest wait.
func TestClosedLoopMeasures(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch i := n.Add(1); {
		case i == 2:
			time.Sleep(300 * time.Millisecond) // the one slow request
		case i >= 3 && i <= 5:
			http.Error(w, "unavailable", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("{}"))
	}))
	defer srv.Close()
	stop := make(chan struct{})
	done := make(chan closedLoop)
	go func() { done <- runClosedLoop(func() string { return srv.URL }, "c", stop) }()
	for n.Load() < 8 {
		time.Sleep(time.Millisecond) // the client's progress is what is awaited
	}
	close(stop)
	got := <-done
	if got.Wait < 300*time.Millisecond {
		t.Errorf("Wait = %v, want at least the slow request's 300ms", got.Wait)
	}
	// Three failures, each followed by a 10ms pause, then a success.
	if got.Without < 30*time.Millisecond || got.Without >= got.Wait {
		t.Errorf("Without = %v, want from the first failure to the next success (≥30ms, < the 300ms wait)", got.Without)
	}
	if got.Failed != 3 || got.Requests < 6 {
		t.Errorf("Requests %d, Failed %d; want 3 failed of at least 6", got.Requests, got.Failed)
	}
}
