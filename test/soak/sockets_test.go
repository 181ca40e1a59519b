package soak

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/test/fleettest"
)

// proxiedSockets is how many idle WebSockets BenchmarkFrontDoorSockets
// opens.
const proxiedSockets = 300

// BenchmarkFrontDoorSockets measures, black-box, what an idle WebSocket
// proxied to another replica costs the proxying replica: the growth of
// that dwk serve process's resident set per socket, with proxiedSockets
// sockets opened through its front door to chat rooms placed on the other
// replica (2 replicas, default settings), each used once and then left
// idle for 5 s before the reading.
func BenchmarkFrontDoorSockets(b *testing.B) {
	f := fleettest.Start(b, fleettest.Options{Replicas: 2})
	door, other := f.Replicas[0], f.Replicas[1]
	members := []string{door.Member, other.Member}
	var rooms []string
	for i := 0; len(rooms) < proxiedSockets; i++ {
		name := fmt.Sprintf("idle-%d", i)
		if objectid.Pick(objectid.FromName([]byte(f.Secret), "ChatRoom", name), members) == other.Member {
			rooms = append(rooms, name)
		}
	}
	base := strings.Replace(door.Public, "http://", "ws://", 1)
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	open := func(room string) *websocket.Conn {
		c, resp, err := d.Dial(base+"/chat/rooms/"+room+"/ws?user=idle", nil)
		if err != nil {
			b.Fatalf("socket to room %s: %v", room, err)
		}
		if m := resp.Header.Get("X-Dwk-Member"); m != "" && m != other.Member {
			b.Fatalf("room %s served by %s, want %s", room, m, other.Member)
		}
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if err := c.WriteMessage(websocket.TextMessage, []byte("hello")); err != nil {
			b.Fatal(err)
		}
		if _, _, err := c.ReadMessage(); err != nil {
			b.Fatalf("socket to room %s: %v", room, err)
		}
		c.SetReadDeadline(time.Time{})
		return c
	}
	// Warm up the paths (pools, first connections) with a few sockets
	// that stay open through the measurement.
	for _, room := range rooms[:10] {
		defer open(room).Close()
	}
	time.Sleep(5 * time.Second)
	before := rss(b, door.Proc.PID())
	var conns []*websocket.Conn
	for _, room := range rooms[10:] {
		conns = append(conns, open(room))
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	time.Sleep(5 * time.Second)
	after := rss(b, door.Proc.PID())
	per := float64(after-before) / float64(len(conns))
	b.Logf("%d idle proxied sockets: the proxying replica's RSS grew %d KiB, %.1f KiB per socket", len(conns), (after-before)>>10, per/1024)
	b.ReportMetric(per/1024, "rss-KiB/socket")
	b.ReportMetric(float64(len(conns)), "sockets")
}

// rss is a process's resident set size, from /proc/PID/status.
func rss(b *testing.B, pid int) int64 {
	b.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatalf("no VmRSS in /proc/%d/status", pid)
	return 0
}
