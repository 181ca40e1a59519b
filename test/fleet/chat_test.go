package fleet

import (
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/test/fleettest"
)

// TestChatAcrossReplicas connects one WebSocket client to the room through
// each replica: every client receives every message.
func TestChatAcrossReplicas(t *testing.T) {
	f := fleettest.Start(t, fleettest.Options{})
	var conns []*websocket.Conn
	for i, r := range f.Replicas {
		u := strings.Replace(r.Public, "http://", "ws://", 1) + "/chat/rooms/fleet/ws?user=u" + string(rune('0'+i))
		c, _, err := websocket.DefaultDialer.Dial(u, nil)
		if err != nil {
			t.Fatalf("dial through %s: %v", r.Member, err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	for i, c := range conns {
		if err := c.WriteJSON(map[string]string{"text": "hello from " + f.Replicas[i].Member}); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range conns {
		want := map[string]bool{}
		for _, r := range f.Replicas {
			want["hello from "+r.Member] = true
		}
		c.SetReadDeadline(time.Now().Add(15 * time.Second))
		for len(want) > 0 {
			var m struct{ Type, Text string }
			if err := c.ReadJSON(&m); err != nil {
				t.Fatalf("client %d: %v (still missing %v)", i, err, want)
			}
			if m.Type == "message" {
				delete(want, m.Text)
			}
		}
	}
}
