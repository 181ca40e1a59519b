package peermux

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/net/http/httpguts"
)

// Path is where a replica's internal listener takes session upgrades.
const Path = "/_dwk/internal/streams"

// protocolName is the Upgrade token of a session.
const protocolName = "dwk-streams/1"

// Listener accepts the streams of the sessions its handler upgrades, as
// a net.Listener an http.Server serves.
type Listener struct {
	addr     net.Addr
	accepted chan *Stream
	closed   chan struct{}
	once     sync.Once

	mu       sync.Mutex // guards sessions, and orders hand against Close
	sessions map[*Session]struct{}
}

// NewListener returns a Listener whose Addr is addr (the internal
// listener's), or a placeholder when addr is nil.
func NewListener(addr net.Addr) *Listener {
	if addr == nil {
		addr = streamsAddr{}
	}
	return &Listener{addr: addr, accepted: make(chan *Stream, acceptBacklog), closed: make(chan struct{}), sessions: make(map[*Session]struct{})}
}

// Accept returns the next stream a peer opened.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		select {
		case st := <-l.accepted:
			// Before anything the server writes on it.
			if err := st.s.write(frameAccepted, st.id, 0, nil); err != nil {
				continue
			}
			return st, nil
		case <-l.closed:
			return nil, net.ErrClosed
		}
	}
}

// Close stops accepting streams, refusing those still waiting for
// Accept; the sessions and their accepted streams go on until
// CloseSessions.
func (l *Listener) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.once.Do(func() { close(l.closed) })
	for {
		select {
		case st := <-l.accepted:
			st.Close()
		default:
			return nil
		}
	}
}

// CloseSessions closes every session (and stream) upgraded so far.
func (l *Listener) CloseSessions() {
	l.mu.Lock()
	sessions := l.sessions
	l.sessions = make(map[*Session]struct{})
	l.mu.Unlock()
	for s := range sessions {
		s.Close()
	}
}

// Addr is the internal listener's address.
func (l *Listener) Addr() net.Addr { return l.addr }

// hand queues st for Accept; false when the backlog is full or l closed.
func (l *Listener) hand(st *Stream) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case <-l.closed:
		return false
	default:
	}
	select {
	case l.accepted <- st:
		return true
	default:
		return false
	}
}

// ServeHTTP upgrades a request to Path into a session whose streams l
// accepts. The request must have been authenticated (the peer link's
// handler) before it gets here.
func (l *Listener) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || !httpguts.HeaderValuesContainsToken(r.Header["Upgrade"], protocolName) {
		http.Error(w, "want GET with Upgrade: "+protocolName, http.StatusBadRequest)
		return
	}
	select {
	case <-l.closed:
		http.Error(w, "not accepting streams", http.StatusServiceUnavailable)
		return
	default:
	}
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		http.Error(w, "cannot take over the connection", http.StatusInternalServerError)
		return
	}
	_ = conn.SetDeadline(time.Now().Add(writeTimeout))
	fmt.Fprintf(brw, "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: %s\r\n\r\n", protocolName)
	if err := brw.Flush(); err != nil {
		conn.Close()
		return
	}
	_ = conn.SetDeadline(time.Time{})
	s := newSession(conn, brw.Reader, false, l.hand)
	l.mu.Lock()
	l.sessions[s] = struct{}{}
	l.mu.Unlock()
	go func() {
		<-s.Done()
		l.mu.Lock()
		delete(l.sessions, s)
		l.mu.Unlock()
	}()
}

// streamsAddr is the address of a Listener made without one.
type streamsAddr struct{}

func (streamsAddr) Network() string { return "peermux" }
func (streamsAddr) String() string  { return "peermux" }
