package fleet

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/wait"
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

// TestChatRoomHibernates: with a short objects.idle_timeout, a room whose
// clients are quiet leaves memory on its holder while their WebSockets stay
// open (dwk_objects_asleep); the next message wakes it, and the other
// client, on another front door, gets it exactly once.
func TestChatRoomHibernates(t *testing.T) {
	f := fleettest.Start(t, fleettest.Options{Edit: func(_ int, c *config.Config) {
		c.Objects.IdleTimeout = config.Duration(500 * time.Millisecond)
	}})
	room := fmt.Sprintf("sleepy-%d", time.Now().UnixNano())
	var conns []*websocket.Conn
	for i, r := range f.Replicas[:2] {
		u := strings.Replace(r.Public, "http://", "ws://", 1) + "/chat/rooms/" + room + "/ws?user=u" + string(rune('0'+i))
		c, _, err := websocket.DefaultDialer.Dial(u, nil)
		if err != nil {
			t.Fatalf("dial through %s: %v", r.Member, err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	metric := func(name string) float64 {
		var sum float64
		for _, r := range f.Replicas {
			if v, ok := r.Metric(name + `{member="` + r.Member + `"}`); ok {
				sum += v
			}
		}
		return sum
	}
	wait.Within(t, 15*time.Second, "the room to hibernate", func() bool { return metric("dwk_objects_asleep") >= 1 })
	wakes := metric("dwk_object_wakes_total")
	if err := conns[0].WriteJSON(map[string]string{"text": "wake up"}); err != nil {
		t.Fatal(err)
	}
	// The other client gets the message once (join and leave notices
	// aside), and nothing else arrives.
	got := 0
	conns[1].SetReadDeadline(time.Now().Add(3 * time.Second))
	for {
		var m struct{ Type, Text string }
		if err := conns[1].ReadJSON(&m); err != nil {
			break
		}
		if m.Type == "message" && m.Text == "wake up" {
			got++
		}
	}
	if got != 1 {
		t.Fatalf("the other client got the message %d times, want 1", got)
	}
	if w := metric("dwk_object_wakes_total"); w <= wakes {
		t.Errorf("dwk_object_wakes_total %v after the message, was %v: the room did not hibernate and wake", w, wakes)
	}
}
