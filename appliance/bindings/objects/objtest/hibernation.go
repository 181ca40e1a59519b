package objtest

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/wait"
)

var _ worker.Hibernatable = (*probeObject)(nil)

// Hibernatable lets the test choose.
func (o *probeObject) Hibernatable() bool { return o.probe != nil && o.probe.hibernatable.Load() }

// testHibernation: an object whose only activity is an open WebSocket
// leaves memory after the idle timeout; an auto-response answers pings
// without waking it; a message wakes it (constructed again) with its
// socket, tag and serialized attachment where they were, and its storage.
func testHibernation(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, func(o *Options) { o.IdleTimeout = 150 * time.Millisecond })
	h.probe.hibernatable.Store(true)
	srv := h.wsServer()
	h.mustCall(h.stub("room"), func(ctx context.Context, o *probeObject) error {
		o.State.SetWebSocketAutoResponse("ping", "pong")
		return o.State.Storage.Put(ctx, "topic", []byte("go"))
	})
	q := url.Values{"object": {"room"}, "tag": {"lobby"}, "attach": {"ann"}}
	c, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/ws?"+q.Encode(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	h.probe.setMessage(func(ctx context.Context, o *probeObject, ws *worker.WebSocket, _ int, data []byte) {
		var a struct{ User string }
		ok, err := ws.DeserializeAttachment(&a)
		topic, _ := o.State.Storage.Get(ctx, "topic")
		n := len(o.State.GetWebSockets("lobby"))
		ws.Send(worker.TextMessage, []byte(fmt.Sprintf("%s from %s (%v %v) on %s, %d in lobby", data, a.User, ok, err, topic, n)))
	})
	before := h.probe.constructed.Load()
	// Asleep: the probe is constructed again for the next message.
	wait.Within(t, 5*time.Second, "the object to hibernate", func() bool { return asleep(h) })
	if err := c.WriteMessage(websocket.TextMessage, []byte("ping")); err != nil {
		t.Fatal(err)
	}
	if got := readText(t, c); got != "pong" {
		t.Fatalf("auto-response %q, want pong", got)
	}
	if n := h.probe.constructed.Load(); n != before {
		t.Fatalf("the auto-response woke the object (%d constructions, had %d)", n, before)
	}
	if err := c.WriteMessage(websocket.TextMessage, []byte("hi")); err != nil {
		t.Fatal(err)
	}
	if got, want := readText(t, c), "hi from ann (true <nil>) on go, 1 in lobby"; got != want {
		t.Fatalf("after waking: %q, want %q", got, want)
	}
	if n := h.probe.constructed.Load(); n != before+1 {
		t.Fatalf("%d constructions after the wake, want %d: the object did not hibernate", n, before+1)
	}
	// Hibernating again and woken by a close, the object hears it.
	wait.Within(t, 5*time.Second, "the object to hibernate again", func() bool { return asleep(h) })
	c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(4000, "bye"), time.Now().Add(time.Second))
	select {
	case ev := <-h.probe.closed:
		if ev.code != 4000 || ev.reason != "bye" {
			t.Errorf("close %d %q, want 4000 bye", ev.code, ev.reason)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the hibernated object never heard the close")
	}
}

// asleep reports whether the harness's runtime has an object hibernating.
func asleep(h *harness) bool { return h.rt.Asleep() > 0 }
