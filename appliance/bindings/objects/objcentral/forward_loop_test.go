package objcentral

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/appliance/fleet/protocol"
	"github.com/dwk/fleet/appliance/worker"
)

// TestForwardLoopAnswersRetry: a request that reached this replica after
// MaxHops forwards and would be forwarded again ran nowhere, so it gets
// the front door's retry answer (replayed later, by then to the holder),
// and is not sent on.
func TestForwardLoopAnswersRetry(t *testing.T) {
	var raw [worker.ObjectIDSize]byte
	raw[0] = 7
	id := worker.NewObjectID("C", "x", raw)
	f := NewForwarder(ForwarderConfig{Transport: roundTripFunc(func(*http.Request) (*http.Response, error) {
		t.Fatal("a request past MaxHops was forwarded again")
		return nil, nil
	})})
	ctx := context.WithValue(context.Background(), forwardKey{}, forwardMark{ns: id.Namespace(), id: objectid.ID(id.Bytes()), hops: MaxHops})
	r := httptest.NewRequest(http.MethodPost, "/increment", nil).WithContext(ctx)
	w := httptest.NewRecorder()
	f.Forward(w, r, id, "elsewhere:1")
	if !protocol.IsRetry(w.Code, w.Header()) || w.Header().Get("Retry-After") == "" {
		t.Errorf("answer %d %v; want the retry answer with Retry-After", w.Code, w.Header())
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
