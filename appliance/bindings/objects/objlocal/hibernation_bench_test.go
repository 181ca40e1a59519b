package objlocal_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
	"github.com/dwk/fleet/appliance/refworkers/chat"
)

// BenchmarkHibernatedRooms opens 10,000 chat rooms (the reference
// worker's ChatRoom class) with one WebSocket each, and measures the heap
// per room (its socket's server and client ends included) while rooms are
// awake and once every one has hibernated with its socket open. b.N is
// ignored: it is one measurement.
func BenchmarkHibernatedRooms(b *testing.B) {
	const rooms = 10_000
	dir := b.TempDir()
	ctx := context.Background()
	idx, err := objlocal.OpenAlarmIndex(ctx, filepath.Join(dir, "alarms.sqlite"))
	if err != nil {
		b.Fatal(err)
	}
	defer idx.Close()
	rt := objects.New(objects.Config{
		Secret: []byte("bench secret"), Store: objlocal.NewStore(dir), Alarms: idx,
		Logger:      slog.New(slog.NewTextHandler(io.Discard, nil)),
		IdleTimeout: 500 * time.Millisecond,
	})
	if err := rt.Open(ctx); err != nil {
		b.Fatal(err)
	}
	defer rt.Close(context.Background())
	ns, err := rt.Namespace(chat.BindingRooms, chat.Class)
	if err != nil {
		b.Fatal(err)
	}
	// The sockets run over in-memory pipes: 10,000 rooms with a client and
	// a server end each would take more descriptors than a process has.
	ln := newPipeListener()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.Split(strings.TrimPrefix(r.URL.Path, "/chat/rooms/"), "/")[0]
		ns.Get(ns.IDFromName(name)).ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	defer srv.Close()
	dialer := websocket.Dialer{NetDial: func(string, string) (net.Conn, error) { return ln.dial() }, HandshakeTimeout: time.Minute}
	base := "ws://rooms"
	heap := func() float64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapInuse)
	}
	before := heap()
	// The baseline: as many sockets with no object behind them, upgraded
	// and read the way the runtime does (one read loop each), so that what
	// a hibernated room costs beyond its socket shows.
	bare := bareSockets(b, rooms)
	socket := (heap() - before) / rooms
	bare.close()
	before = heap()
	conns := make([]*websocket.Conn, 0, rooms)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	// Rooms open a batch at a time, and each batch goes to sleep before
	// the next opens: awake, a room holds its database open (3 files), and
	// 10,000 at once would take more descriptors than a process has. The
	// awake figure is the first batch's, before it sleeps.
	const batch = 1000
	var awake float64
	for i := 0; i < rooms; i += batch {
		for j := i; j < i+batch; j++ {
			c, _, err := dialer.Dial(fmt.Sprintf("%s/chat/rooms/r%d/ws?user=u", base, j), nil)
			if err != nil {
				b.Fatalf("room %d: %v", j, err)
			}
			conns = append(conns, c)
		}
		if i == 0 {
			awake = (heap() - before) / batch
		}
		deadline := time.Now().Add(time.Minute)
		for rt.Asleep() < i+batch {
			if time.Now().After(deadline) {
				b.Fatalf("%d of %d rooms hibernated within a minute", rt.Asleep(), i+batch)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	asleep := (heap() - before) / rooms
	b.ReportMetric(awake, "awake-B/room")
	b.ReportMetric(asleep, "asleep-B/room")
	b.ReportMetric(awake-asleep, "freed-B/room")
	b.ReportMetric(socket, "socket-B/room")
	b.ReportMetric(asleep-socket, "object-B/room")
	b.ReportMetric(float64(rt.Stats().Hibernations), "hibernations")
}

// bareSet is a set of open sockets with no object behind them.
type bareSet struct {
	srv   *http.Server
	ln    *pipeListener
	conns []*websocket.Conn
}

// bareSockets opens n WebSockets over in-memory pipes to a handler that
// upgrades them with the runtime's settings and reads each in a loop.
func bareSockets(b *testing.B, n int) *bareSet {
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	s := &bareSet{ln: newPipeListener()}
	s.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		c.SetReadLimit(objects.DefaultMaxWebSocketMessage)
		go func() {
			defer c.Close()
			for {
				if _, _, err := c.ReadMessage(); err != nil {
					return
				}
			}
		}()
	})}
	go s.srv.Serve(s.ln)
	d := websocket.Dialer{NetDial: func(string, string) (net.Conn, error) { return s.ln.dial() }, HandshakeTimeout: time.Minute}
	for i := range n {
		c, _, err := d.Dial(fmt.Sprintf("ws://bare/%d", i), nil)
		if err != nil {
			b.Fatalf("bare socket %d: %v", i, err)
		}
		s.conns = append(s.conns, c)
	}
	return s
}

func (s *bareSet) close() {
	for _, c := range s.conns {
		c.Close()
	}
	s.srv.Close()
}

// pipeListener hands out the server ends of in-memory connections.
type pipeListener struct {
	conns  chan net.Conn
	closed chan struct{}
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), closed: make(chan struct{})}
}

func (l *pipeListener) dial() (net.Conn, error) {
	c, s := net.Pipe()
	select {
	case l.conns <- s:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	select {
	case <-l.closed:
	default:
		close(l.closed)
	}
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }
