package objects_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/fleet/protocol"
	"github.com/dwk/fleet/appliance/worker"
)

// movingForwarder answers the retry answer (nothing ran: the holder is
// gone) for its first n forwards, recording each request's body, and then
// lets the object come here.
type movingForwarder struct {
	mu        sync.Mutex
	n         int
	bodies    []string
	replaying []bool // objects.Replaying of each forward's context
	placer    *fakePlacer
}

func (f *movingForwarder) Forward(w http.ResponseWriter, r *http.Request, _ worker.ObjectID, _ string) {
	b, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.bodies = append(f.bodies, string(b))
	f.replaying = append(f.replaying, objects.Replaying(r.Context()))
	if len(f.bodies) >= f.n {
		f.placer.mu.Lock()
		f.placer.elsewhere = ""
		f.placer.mu.Unlock()
	}
	protocol.WriteRetry(w)
}

func (f *movingForwarder) forwards() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.bodies...)
}

// TestFetchWaitsForAMovingObject: a stub's Fetch whose object's holder is
// gone (a retry answer) is replayed, body and all, until the object
// answers from its new holder; one that keeps moving gets the retry answer
// after MoveTimeout; a body that cannot be read again is not replayed.
func TestFetchWaitsForAMovingObject(t *testing.T) {
	newMoving := func(n int) (worker.Stub, *movingForwarder) {
		placer := &fakePlacer{elsewhere: "10.0.0.9:8788"}
		fwd := &movingForwarder{n: n, placer: placer}
		rt := newRuntime(t, func(c *objects.Config) {
			c.Placer, c.Forwarder, c.MoveTimeout = placer, fwd, 400*time.Millisecond
		})
		ns, _ := rt.Namespace("ECHO", echoClass)
		return ns.Get(ns.IDFromName("moving")), fwd
	}
	post := func(s worker.Stub, body io.Reader) (*http.Response, string) {
		req, err := http.NewRequest(http.MethodPost, "http://x/", body)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := s.Fetch(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}

	s, fwd := newMoving(3)
	resp, got := post(s, strings.NewReader("payload"))
	if resp.StatusCode != http.StatusOK || got != s.ID().String() {
		t.Errorf("moved object answered %d %q, want 200 from its new holder", resp.StatusCode, got)
	}
	if f := fwd.forwards(); len(f) != 3 || f[0] != "payload" || f[2] != "payload" {
		t.Errorf("forwards before the move carried %q, want the body 3 times", f)
	}
	fwd.mu.Lock()
	if r := fwd.replaying; len(r) != 3 || r[0] || !r[1] || !r[2] {
		t.Errorf("Replaying of each forward = %v, want only the replays marked", r)
	}
	fwd.mu.Unlock()

	s, fwd = newMoving(1 << 30)
	start := time.Now()
	resp, _ = post(s, nil)
	if took := time.Since(start); !protocol.IsRetry(resp.StatusCode, resp.Header) || took < 400*time.Millisecond || took > 5*time.Second {
		t.Errorf("an object that keeps moving: %d after %v, want the retry answer after MoveTimeout (400ms)", resp.StatusCode, took)
	}
	if n := len(fwd.forwards()); n < 3 {
		t.Errorf("%d forwards within MoveTimeout, want several", n)
	}

	s, fwd = newMoving(1 << 30)
	resp, _ = post(s, io.NopCloser(strings.NewReader("once"))) // no GetBody
	if !protocol.IsRetry(resp.StatusCode, resp.Header) || len(fwd.forwards()) != 1 {
		t.Errorf("a body that cannot be read again: %d after %d forwards, want the retry answer after 1", resp.StatusCode, len(fwd.forwards()))
	}
}
