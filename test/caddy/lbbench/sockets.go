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

// Names of the socket sides.
const (
	SocketsDirect    = "idle WebSockets direct to an app server"
	SocketsFrontDoor = "idle WebSockets through the front door"
	SocketsSelf      = "idle WebSockets through the front door to its own replica (in process)"
)

// sockets opens o.Sockets idle WebSockets directly to an app server, then
// through the front door to rooms placed on other members (each socket
// proxied), then through the front door to rooms placed on its own member
// (each handed to the app in process), and measures the memory they hold.
func (e *env) sockets(ctx context.Context, o Options) ([]Sockets, error) {
	remote := e.names("ChatRoom", o.Sockets, false)
	sides := []struct {
		name, base string
		rooms      []string
	}{
		{SocketsDirect, e.appURLs[0], remote},
		{SocketsFrontDoor, e.fdURL, remote},
		{SocketsSelf, e.fdURL, e.names("ChatRoom", o.Sockets, true)},
	}
	var out []Sockets
	for _, s := range sides {
		r, err := measureSockets(ctx, s.name, "ws"+strings.TrimPrefix(s.base, "http"), s.rooms)
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
	goroutines := runtime.NumGoroutine()
	heap0, rss0 := memory()
	conns := make([]*websocket.Conn, 0, n)
	closeAll := func() {
		for _, c := range conns {
			c.Close()
		}
	}
	defer closeAll()
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
	closeAll()
	conns = nil
	// The next side's baseline must not hold this side's sockets.
	if err := settle(ctx, goroutines+settleSlack); err != nil {
		return Sockets{}, fmt.Errorf("%s: %w", name, err)
	}
	return Sockets{
		Name: name, Sockets: n,
		HeapPerSocket: (heap1 - heap0) / int64(n),
		RSSPerSocket:  (rss1 - rss0) / int64(n),
	}, nil
}

// settleSlack is how many more goroutines than before a side may be left
// running once its sockets are closed (background work of the proxies).
const settleSlack = 16

// settleWait bounds the wait for closed sockets to be let go.
const settleWait = 10 * time.Second

// settle waits until no more than max goroutines run, so that the sockets
// just closed have been let go on both ends.
func settle(ctx context.Context, max int) error {
	ctx, cancel := context.WithTimeout(ctx, settleWait)
	defer cancel()
	for runtime.NumGoroutine() > max {
		select {
		case <-ctx.Done():
			return fmt.Errorf("%d goroutines still run %v after closing the sockets (at most %d expected)", runtime.NumGoroutine(), settleWait, max)
		case <-time.After(20 * time.Millisecond):
		}
	}
	return nil
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
