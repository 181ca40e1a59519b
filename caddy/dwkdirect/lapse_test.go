package dwkdirect

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestLapseEndsTheWait: a member that took the request and does not
// answer, and whose hold on the object lapses, gets the client a 504 at
// once (the request may have run), not at the response deadline, and the
// request is not replayed.
func TestLapseEndsTheWait(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	dial := member(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	d := newTestDirect(time.Minute)
	req := httptest.NewRequest(http.MethodPost, "http://front/counter/a/increment", nil)
	rec := httptest.NewRecorder()
	var p replay
	watch := func(ctx context.Context, lapsed func()) {
		go func() {
			select {
			case <-time.After(100 * time.Millisecond):
				lapsed()
			case <-ctx.Done():
			}
		}()
	}
	start := time.Now()
	d.forward(rec, req, "m2", dial, target, watch, p.fn)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the forward took %v after the lapse", took)
	}
	if rec.Code != http.StatusGatewayTimeout || p.called {
		t.Errorf("client got %d, replayed %v; want 504, not replayed", rec.Code, p.called)
	}
}
