package fleet

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/wait"
)

// TestSplicedTunnelClosesWith1012 opens a WebSocket through one replica's
// front door to a room another replica holds (a spliced tunnel), then
// drains the front door's replica: the client gets close code 1012, so it
// reconnects elsewhere, and the room goes on through another front door.
// The tunnel is a stream over the front door's session to the member,
// over mutual TLS or plaintext internal links alike.
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

// TestTunnelsToAMemberShareOneConnection opens WebSockets through one
// replica's front door to rooms another replica holds: however many there
// are, the front door keeps one connection to that member for them (a
// session carrying a stream per tunnel), not one each.
func TestTunnelsToAMemberShareOneConnection(t *testing.T) {
	f := fleettest.Start(t, fleettest.Options{Replicas: 2})
	door, other := f.Replicas[0], f.Replicas[1]
	var rooms []string
	for i := 0; len(rooms) < 20 && i < 400; i++ {
		name := fmt.Sprintf("shared-%d", i)
		_, member, err := get(door.Public+"/chat/rooms/"+name+"/messages", nil)
		if err != nil {
			t.Fatal(err)
		}
		if member == other.Member {
			rooms = append(rooms, name)
		}
	}
	if len(rooms) < 20 {
		t.Fatalf("only %d rooms among 400 are held by %s", len(rooms), other.Member)
	}
	before := connectionsTo(t, door.Proc.PID(), other.Internal)
	base := strings.Replace(door.Public, "http://", "ws://", 1)
	var conns []*websocket.Conn
	for _, room := range rooms {
		c, _, err := websocket.DefaultDialer.Dial(base+"/chat/rooms/"+room+"/ws?user=shared", nil)
		if err != nil {
			t.Fatalf("dial room %s: %v", room, err)
		}
		defer c.Close()
		conns = append(conns, c)
		if err := c.WriteJSON(map[string]string{"text": "hello " + room}); err != nil {
			t.Fatal(err)
		}
		readUntil(t, c, "hello "+room)
	}
	after := connectionsTo(t, door.Proc.PID(), other.Internal)
	if grew := after - before; grew > 1 {
		t.Fatalf("%d WebSockets to %s opened %d connections to it (%d before, %d after), want at most 1", len(rooms), other.Member, grew, before, after)
	}
	tunnels := func() float64 {
		v, ok := door.Metric(`dwk_frontdoor_tunnels{member="` + door.Member + `"}`)
		if !ok {
			t.Fatal("no dwk_frontdoor_tunnels on the front door's replica")
		}
		return v
	}
	if n := tunnels(); n != float64(len(rooms)) {
		t.Fatalf("dwk_frontdoor_tunnels = %v with %d sockets open", n, len(rooms))
	}
	// Closed by their clients, the tunnels (and their streams) go away.
	for _, c := range conns {
		c.Close()
	}
	wait.Within(t, 10*time.Second, "every tunnel to end", func() bool { return tunnels() == 0 })
}

// connectionsTo counts the established TCP connections process pid has
// to addr (host:port on 127.0.0.1), from /proc.
func connectionsTo(t *testing.T, pid int, addr string) int {
	t.Helper()
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		t.Fatal(err)
	}
	inodes := map[string]bool{}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range fds {
		link, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if ino, ok := strings.CutPrefix(link, "socket:["); err == nil && ok {
			inodes[strings.TrimSuffix(ino, "]")] = true
		}
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/net/tcp", pid))
	if err != nil {
		t.Fatal(err)
	}
	remote := fmt.Sprintf("0100007F:%04X", p)
	n := 0
	for _, line := range strings.Split(string(data), "\n")[1:] {
		fields := strings.Fields(line)
		// sl local rem st ... inode (field 9); 01 is ESTABLISHED.
		if len(fields) > 9 && fields[2] == remote && fields[3] == "01" && inodes[fields[9]] {
			n++
		}
	}
	return n
}
