package https

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
)

// gate is a TCP proxy to a backend that holds every connection, without
// reading from it, until it is opened: an ACME client behind it hangs in
// its first request.
type gate struct {
	addr     string
	backend  string
	ln       net.Listener
	opened   chan struct{}
	once     sync.Once
	accepted atomic.Int32
	wg       sync.WaitGroup
}

// newGate starts a closed gate to backend, stopped when the test ends.
func newGate(t *testing.T, backend string) *gate {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := &gate{addr: ln.Addr().String(), backend: backend, ln: ln, opened: make(chan struct{})}
	done := make(chan struct{})
	g.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			g.accepted.Add(1)
			g.wg.Go(func() { g.serve(c, done) })
		}
	})
	t.Cleanup(func() {
		close(done)
		ln.Close()
		g.wg.Wait()
	})
	return g
}

// connections is how many connections the gate has accepted.
func (g *gate) connections() int { return int(g.accepted.Load()) }

// open lets held and new connections through.
func (g *gate) open() { g.once.Do(func() { close(g.opened) }) }

func (g *gate) serve(c net.Conn, done <-chan struct{}) {
	defer c.Close()
	select {
	case <-g.opened:
	case <-done:
		return
	}
	b, err := net.Dial("tcp", g.backend)
	if err != nil {
		return
	}
	defer b.Close()
	stop := func() { c.Close(); b.Close() }
	go func() { <-done; stop() }()
	var copies sync.WaitGroup
	copies.Go(func() { io.Copy(b, c); stop() })
	io.Copy(c, b)
	stop()
	copies.Wait()
}
