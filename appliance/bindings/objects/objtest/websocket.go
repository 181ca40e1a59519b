package objtest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/wait"
)

// wsServer serves /ws?object=<name>&tag=… by passing the live request to
// the probe object <name> through Stub.ServeHTTP.
func (h *harness) wsServer() *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.stub(r.URL.Query().Get("object")).ServeHTTP(w, r)
	}))
	h.t.Cleanup(srv.Close)
	return srv
}

// dial opens a WebSocket to object with tags.
func dial(t *testing.T, srv *httptest.Server, object string, tags ...string) *websocket.Conn {
	t.Helper()
	q := url.Values{"object": {object}, "tag": tags}
	u := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws?" + q.Encode()
	c, resp, err := websocket.DefaultDialer.Dial(u, nil)
	if err != nil {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		t.Fatalf("dial %s: %v (status %d)", u, err, status)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// countSockets asks the object how many open sockets carry tag.
func countSockets(t *testing.T, h *harness, object, tag string) int {
	t.Helper()
	var n int
	h.mustCall(h.stub(object), func(ctx context.Context, o *probeObject) error {
		n = len(o.State.GetWebSockets(tag))
		return nil
	})
	return n
}

// readText reads one message within a deadline.
func readText(t *testing.T, c *websocket.Conn) string {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	mt, data, err := c.ReadMessage()
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if mt != websocket.TextMessage {
		t.Fatalf("message type %d, want text", mt)
	}
	return string(data)
}

// readUntilClose reads until the server closes the connection and returns
// its close code and reason.
func readUntilClose(t *testing.T, c *websocket.Conn) (int, string) {
	t.Helper()
	code, reason, err := closeCode(c)
	if err != nil {
		t.Fatalf("read until close: %v", err)
	}
	return code, reason
}

// closeCode reads until the connection closes; safe in any goroutine.
func closeCode(c *websocket.Conn) (int, string, error) {
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, _, err := c.ReadMessage()
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			return ce.Code, ce.Text, nil
		}
		if err != nil {
			return 0, "", err
		}
	}
}

func testWebSockets(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	// Protocol: "to:<tag>:<text>" broadcasts text to sockets with tag;
	// "tags" answers with the sender's tags; "bye" closes the sender.
	h.probe.setMessage(func(ctx context.Context, o *probeObject, ws *worker.WebSocket, mt int, data []byte) {
		msg := string(data)
		switch {
		case strings.HasPrefix(msg, "to:"):
			parts := strings.SplitN(msg, ":", 3)
			for _, s := range o.State.GetWebSockets(parts[1]) {
				s.Send(worker.TextMessage, []byte(parts[2]))
			}
		case msg == "tags":
			ws.Send(worker.TextMessage, []byte(strings.Join(ws.Tags(), ",")))
		case msg == "bye":
			ws.Close(4001, "server says bye")
		}
	})
	srv := h.wsServer()
	alice := dial(t, srv, "room", "a")
	bob := dial(t, srv, "room", "a", "b")
	carol := dial(t, srv, "room", "b")
	other := dial(t, srv, "other room", "a")

	if got := countSockets(t, h, "room", ""); got != 3 {
		t.Errorf("GetWebSockets(\"\") = %d sockets, want 3", got)
	}
	if got := countSockets(t, h, "room", "a"); got != 2 {
		t.Errorf("GetWebSockets(a) = %d sockets, want 2", got)
	}
	if got := countSockets(t, h, "room", "zzz"); got != 0 {
		t.Errorf("GetWebSockets(zzz) = %d sockets, want 0", got)
	}

	bob.WriteMessage(websocket.TextMessage, []byte("tags"))
	if got := readText(t, bob); got != "a,b" {
		t.Errorf("Tags() = %q, want a,b", got)
	}
	alice.WriteMessage(websocket.TextMessage, []byte("to:b:hello b"))
	for _, c := range []*websocket.Conn{bob, carol} {
		if got := readText(t, c); got != "hello b" {
			t.Errorf("broadcast got %q", got)
		}
	}
	// Ordering per socket: messages are handled in the order sent.
	for _, m := range []string{"to:a:1", "to:a:2", "to:a:3"} {
		carol.WriteMessage(websocket.TextMessage, []byte(m))
	}
	var seq []string
	for range 3 {
		seq = append(seq, readText(t, alice))
	}
	if strings.Join(seq, "") != "123" {
		t.Errorf("alice got %v, want 1 2 3 in order", seq)
	}
	for range 3 {
		readText(t, bob)
	}

	// Client-initiated close reaches WebSocketClose with code and reason.
	alice.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(4000, "client bye"))
	select {
	case ev := <-h.probe.closed:
		if ev.code != 4000 || ev.reason != "client bye" || !sameSet(ev.tags, []string{"a"}) {
			t.Errorf("close event = %+v, want 4000 \"client bye\" [a]", ev)
		}
	case <-timeout(10):
		t.Fatal("WebSocketClose not called after the client closed")
	}
	if got := countSockets(t, h, "room", ""); got != 2 {
		t.Errorf("after a close GetWebSockets = %d, want 2", got)
	}

	// Server-initiated close reaches the client.
	carol.WriteMessage(websocket.TextMessage, []byte("bye"))
	if code, reason := readUntilClose(t, carol); code != 4001 || reason != "server says bye" {
		t.Errorf("client got close %d %q, want 4001", code, reason)
	}
	select {
	case ev := <-h.probe.closed:
		if ev.code != 4001 {
			t.Errorf("close event after server close = %+v", ev)
		}
	case <-timeout(10):
		t.Fatal("WebSocketClose not called after the server closed")
	}

	// Sockets of another object are separate.
	if got := countSockets(t, h, "other room", ""); got != 1 {
		t.Errorf("other object has %d sockets, want 1", got)
	}
	other.Close()
}

func sameSet(a, b []string) bool {
	a, b = append([]string(nil), a...), append([]string(nil), b...)
	sort.Strings(a)
	sort.Strings(b)
	return strings.Join(a, "\x00") == strings.Join(b, "\x00")
}

func testUpgradeViaFetch(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	req, _ := http.NewRequest(http.MethodGet, "http://object/ws", nil)
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", "websocket")
	req.Header.Set("Sec-WebSocket-Version", "13")
	req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := h.stub("fetch-upgrade").Fetch(ctx, req)
	if err == nil {
		resp.Body.Close()
		t.Fatal("Stub.Fetch accepted a WebSocket upgrade request")
	}
}

func testSocketPreventsEviction(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, func(o *Options) { o.IdleTimeout = 30 * time.Millisecond })
	srv := h.wsServer()
	c := dial(t, srv, "held", "x")
	wait.Within(t, 5*time.Second, "the socket to register", func() bool { return countSockets(t, h, "held", "") == 1 })
	// Several idle timeouts pass; the open socket keeps the object.
	deadline := time.Now().Add(300 * time.Millisecond)
	for time.Now().Before(deadline) {
		if n := h.rt.ActiveObjects(); n != 1 {
			t.Fatalf("object with an open WebSocket was evicted (%d active)", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
	<-h.probe.closed
	wait.For(t, "eviction after the socket closed", func() bool { return h.rt.ActiveObjects() == 0 })
}
