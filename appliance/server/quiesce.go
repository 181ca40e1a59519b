package server

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/fleet/peermux"
)

// listening is an http.Server and the listener it serves, with the state
// of each of its connections, so that it can stop without dropping a
// request it has read.
type listening struct {
	hs *http.Server
	ln net.Listener
	// streams, when set, are the streams peers open over sessions the
	// handler upgraded (package peermux), served by hs like ln's
	// connections.
	streams *peermux.Listener

	mu    sync.Mutex
	conns map[net.Conn]http.ConnState
}

// listen pairs hs with ln and follows hs's connections through its
// ConnState hook.
func listen(hs *http.Server, ln net.Listener) *listening {
	l := &listening{hs: hs, ln: ln, conns: map[net.Conn]http.ConnState{}}
	hs.ConnState = func(c net.Conn, st http.ConnState) {
		l.mu.Lock()
		defer l.mu.Unlock()
		switch st {
		case http.StateClosed, http.StateHijacked:
			delete(l.conns, c)
		default:
			l.conns[c] = st
		}
	}
	return l
}

// busy reports whether a connection is reading a request or answering one.
func (l *listening) busy() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, st := range l.conns {
		if st == http.StateActive {
			return true
		}
	}
	return false
}

// serve serves the listener (and the streams) until it is closed.
func (l *listening) serve() error {
	if l.streams != nil {
		go func() { _ = l.hs.Serve(l.streams) }()
	}
	return l.hs.Serve(l.ln)
}

// closeStreams stops accepting streams; with sessions, it also closes
// the sessions and every stream over them.
func (l *listening) closeStreams(sessions bool) {
	if l.streams == nil {
		return
	}
	l.streams.Close()
	if sessions {
		l.streams.CloseSessions()
	}
}

// stop finishes in-flight requests, answering every request it has begun
// to read, then closes the server; it is bounded by ctx, after which the
// remaining connections are closed and ctx's error returned.
//
// http.Server.Shutdown alone is not enough: a request read after it began
// is dropped unanswered, and the peer, seeing EOF, cannot tell whether it
// ran. So the listener closes first (a peer dialing now is refused and
// knows nothing was sent), keep-alives go off (each connection closes
// after its next answer, idle ones at once), and the connections left,
// which hold no request, close once no request is in flight. A peer that
// sends a request on a pooled connection in the instant it closes sees
// it closed (what HTTP/1.1 allows any server to do to an idle connection);
// a Go client sends an idempotent one again.
func (l *listening) stop(ctx context.Context) error {
	l.ln.Close()
	l.closeStreams(false)
	defer l.closeStreams(true)
	l.hs.SetKeepAlivesEnabled(false)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for l.busy() {
		select {
		case <-tick.C:
		case <-ctx.Done():
			l.hs.Close()
			return ctx.Err()
		}
	}
	l.hs.Close()
	return nil
}

// close closes the listener and every connection at once.
func (l *listening) close() {
	if l != nil {
		l.hs.Close()
		l.closeStreams(true)
	}
}
