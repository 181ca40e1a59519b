package lbbench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/websocket"
)

// Sockets is the memory one side needs per idle WebSocket.
type Sockets struct {
	Name    string `json:"name"`
	Sockets int    `json:"sockets"`
	// HeapPerSocket is the growth of the Go heap in use plus goroutine
	// stacks, per socket, after a GC.
	HeapPerSocket int64 `json:"heap_per_socket_bytes"`
	// RSSPerSocket is the growth of the resident set, per socket.
	RSSPerSocket int64 `json:"rss_per_socket_bytes"`
}

// sockets opens o.Sockets idle WebSockets directly to an app server and
// then through the front door (one chat room object per socket, each placed
// on another member, so every socket is proxied), and measures the memory
// they hold.
func (e *env) sockets(ctx context.Context, o Options) ([]Sockets, error) {
	rooms := e.names("ChatRoom", o.Sockets, false)
	sides := []struct{ name, base string }{
		{"idle WebSockets direct to an app server", e.appURLs[0]},
		{"idle WebSockets through the front door", e.fdURL},
	}
	var out []Sockets
	for _, s := range sides {
		r, err := measureSockets(ctx, s.name, "ws"+strings.TrimPrefix(s.base, "http"), rooms)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// measureSockets opens one idle WebSocket per room and returns the memory
// they hold.
func measureSockets(ctx context.Context, name, base string, rooms []string) (Sockets, error) {
	n := len(rooms)
	heap0, rss0 := memory()
	conns := make([]*websocket.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	for i, room := range rooms {
		c, _, err := d.DialContext(ctx, fmt.Sprintf("%s/chat/rooms/%s/ws", base, room), nil)
		if err != nil {
			return Sockets{}, fmt.Errorf("%s: socket %d: %w", name, i, err)
		}
		conns = append(conns, c)
		// One round trip, so the socket is established end to end.
		if err := c.WriteMessage(websocket.TextMessage, []byte("ping")); err != nil {
			return Sockets{}, fmt.Errorf("%s: socket %d: %w", name, i, err)
		}
		if _, msg, err := c.ReadMessage(); err != nil || !bytes.Equal(msg, []byte("ping")) {
			return Sockets{}, fmt.Errorf("%s: socket %d: echo %q, %v", name, i, msg, err)
		}
	}
	heap1, rss1 := memory()
	return Sockets{
		Name: name, Sockets: n,
		HeapPerSocket: (heap1 - heap0) / int64(n),
		RSSPerSocket:  (rss1 - rss0) / int64(n),
	}, nil
}

// memory returns the heap in use plus goroutine stacks, and the resident
// set size, after collecting garbage.
func memory() (heap, rss int64) {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapInuse + ms.StackInuse), residentBytes()
}

// residentBytes reads the resident set size from /proc (0 elsewhere).
func residentBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}
