package fleet

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/test/fleettest"
)

// TestSplicedTunnelClosesWith1012 opens a WebSocket through one replica's
// front door to a room another replica holds (a spliced tunnel), then
// drains the front door's replica: the client gets close code 1012, so it
// reconnects elsewhere, and the room goes on through another front door.
// Over mutual TLS the tunnel copies on a goroutine per direction; over
// plaintext internal links an idle tunnel waits in the shared poller.
func TestSplicedTunnelClosesWith1012(t *testing.T) {
	for _, plaintext := range []bool{false, true} {
		name := "mutual TLS"
		if plaintext {
			name = "plaintext"
		}
		t.Run(name, func(t *testing.T) { splicedTunnelClosesWith1012(t, plaintext) })
	}
}

func splicedTunnelClosesWith1012(t *testing.T, plaintext bool) {
	f := fleettest.Start(t, fleettest.Options{PlaintextInternal: plaintext})
	door := f.Replicas[0]
	room := ""
	for i := range 50 {
		name := fmt.Sprintf("tunnel-%d", i)
		_, member, err := get(door.Public+"/chat/rooms/"+name+"/messages", nil)
		if err != nil {
			t.Fatal(err)
		}
		if member != "" && member != door.Member {
			room = name
			break
		}
	}
	if room == "" {
		t.Fatal("no room among 50 is held by another replica")
	}
	ws := strings.Replace(door.Public, "http://", "ws://", 1) + "/chat/rooms/" + room + "/ws?user=tunnel"
	c, _, err := websocket.DefaultDialer.Dial(ws, nil)
	if err != nil {
		t.Fatalf("dial through %s: %v", door.Member, err)
	}
	defer c.Close()
	if err := c.WriteJSON(map[string]string{"text": "through the tunnel"}); err != nil {
		t.Fatal(err)
	}
	readUntil(t, c, "through the tunnel")

	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		door.Stop()
	}()
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	var code int
	for {
		if _, _, err := c.ReadMessage(); err != nil {
			var ce *websocket.CloseError
			if !errors.As(err, &ce) {
				t.Fatalf("the tunnel ended without a close frame: %v", err)
			}
			code = ce.Code
			break
		}
	}
	if code != websocket.CloseServiceRestart {
		t.Errorf("close code %d, want %d (service restart)", code, websocket.CloseServiceRestart)
	}
	<-stopped

	other := f.Replicas[1]
	c2, _, err := websocket.DefaultDialer.Dial(strings.Replace(other.Public, "http://", "ws://", 1)+"/chat/rooms/"+room+"/ws?user=tunnel", nil)
	if err != nil {
		t.Fatalf("reconnect through %s: %v", other.Member, err)
	}
	defer c2.Close()
	if err := c2.WriteJSON(map[string]string{"text": "after the drain"}); err != nil {
		t.Fatal(err)
	}
	readUntil(t, c2, "after the drain")
}

// readUntil reads chat events from c until a message with text arrives.
func readUntil(t *testing.T, c *websocket.Conn, text string) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(15 * time.Second))
	for {
		var m struct{ Type, Text string }
		if err := c.ReadJSON(&m); err != nil {
			t.Fatalf("waiting for %q: %v", text, err)
		}
		if m.Type == "message" && m.Text == text {
			return
		}
	}
}
