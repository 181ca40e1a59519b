package dwkdirect

import (
	"bufio"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"go.uber.org/zap"

	"github.com/dwk/fleet/appliance/fleet/peermux"
)

// copyBufferSize is the size of the pooled buffers tunnels copy through.
// A buffer is taken only once bytes are ready and returned after they are
// written, so an idle tunnel holds none.
const copyBufferSize = 16 << 10

// shutdownWait bounds how long stopping the front door waits for a
// tunnel's copiers, and for its close frames to be written.
const shutdownWait = time.Second

var buffers = sync.Pool{New: func() any { b := make([]byte, copyBufferSize); return &b }}

// blockingBufferSize is the size of the buffers a copier reads through
// when it cannot wait for bytes without one (TLS): held while the socket
// is idle, so small; the TLS connection buffers a record itself.
const blockingBufferSize = 2 << 10

var blockingBuffers = sync.Pool{New: func() any { b := make([]byte, blockingBufferSize); return &b }}

// tunnels are the open tunnels of one handler.
type tunnels struct {
	log    *zap.Logger
	mu     sync.Mutex
	open   map[*tunnel]struct{}
	closed bool
}

func newTunnels(log *zap.Logger) *tunnels {
	return &tunnels{log: log, open: make(map[*tunnel]struct{})}
}

// count is how many tunnels are open.
func (ts *tunnels) count() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return len(ts.open)
}

// tunnel is one spliced WebSocket: the client's connection to the front
// door and the front door's to the member.
type tunnel struct {
	ts           *tunnels
	client, back net.Conn
	// up and down track WebSocket frame boundaries in each direction, so
	// that a close frame is only ever written between two frames.
	up, down frames
	sides    [2]*side
	poll     *poller // nil: each side runs a goroutine (TLS, not Linux)
	stopping atomic.Bool
	left     atomic.Int32 // sides still open; the last closes both
	finished atomic.Bool  // both connections closed and t let go

	mu     sync.Mutex
	active int           // relays or copiers running
	idle   chan struct{} // closed when active drops to 0 while stopping
}

// side is one direction of a tunnel: what src sends is written to dst.
type side struct {
	t        *tunnel
	src, dst net.Conn
	raw      syscall.RawConn // src's raw socket, read directly; nil over TLS
	wait     syscall.RawConn // the socket whose readiness the poller waits for: raw, or under TLS the TCP socket beneath
	stream   *peermux.Stream // src when it is a stream to a peer (stream.go); it says itself when it has bytes
	f        *frames
	key      uint64 // the poller's key, once armed (guarded by its mutex)
	gone     bool   // forgotten by the poller: never armed again (idem)
}

// enter counts a relay or copier that starts, unless t is stopping.
func (t *tunnel) enter() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopping.Load() {
		return false
	}
	t.active++
	return true
}

// leave counts a relay or copier that ends.
func (t *tunnel) leave() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.active--
	if t.active == 0 && t.idle != nil {
		close(t.idle)
		t.idle = nil
	}
}

// handOver writes the member's 101 answer to the client and passes on the
// bytes either side sent early (already buffered in cbrw and br).
func (t *tunnel) handOver(res *http.Response, cbrw *bufio.ReadWriter, br *bufio.Reader) error {
	_ = t.client.SetDeadline(time.Now().Add(DefaultHandshakeTimeout))
	w := cbrw.Writer
	w.WriteString("HTTP/1.1 101 Switching Protocols\r\n")
	if err := res.Header.Write(w); err != nil {
		return err
	}
	w.WriteString("\r\n")
	if n := br.Buffered(); n > 0 {
		early, _ := br.Peek(n)
		t.down.feed(early)
		w.Write(early)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if n := cbrw.Reader.Buffered(); n > 0 {
		early, _ := cbrw.Reader.Peek(n)
		t.up.feed(early)
		if _, err := t.back.Write(early); err != nil {
			return err
		}
	}
	_ = t.client.SetDeadline(time.Time{})
	return t.back.SetDeadline(time.Time{})
}

// start relays t, or closes it when the handler has stopped. On Linux an
// idle tunnel runs nothing: the shared poller starts a relay for a side
// when bytes (or the end) arrive on its socket, under TLS on the TCP
// socket beneath (see poller_linux.go). Elsewhere each side runs a copier
// goroutine parked on its socket's readiness (or, over TLS, on a small
// buffer).
func (ts *tunnels) start(t *tunnel) {
	t.ts = ts
	t.sides = [2]*side{
		{t: t, src: t.client, dst: t.back, raw: rawConn(t.client), wait: waitConn(t.client), f: &t.up},
		{t: t, src: t.back, dst: t.client, raw: rawConn(t.back), wait: waitConn(t.back), f: &t.down},
	}
	for _, s := range t.sides {
		s.stream, _ = s.src.(*peermux.Stream)
	}
	if p, err := sharedPoller(); err == nil && t.sides[0].waitable() && t.sides[1].waitable() {
		t.poll = p
	}
	t.left.Store(2)
	ts.mu.Lock()
	if ts.closed {
		ts.mu.Unlock()
		t.client.Close()
		t.back.Close()
		return
	}
	ts.open[t] = struct{}{}
	ts.mu.Unlock()
	for _, s := range t.sides {
		if t.poll != nil && s.raw == nil && s.stream == nil {
			// A TLS connection may hold records it read from the socket
			// already (sent along with the handshake's answer), which the
			// socket's readiness would not announce: relay them first;
			// the relay then arms the socket.
			go ts.relay(s)
			continue
		}
		if t.poll != nil {
			if err := s.arm(); err != nil {
				ts.log.Debug("tunnel: cannot wait for its sockets", zap.Error(err))
				ts.done(t, true)
				return
			}
			continue
		}
		if t.enter() {
			go ts.pump(s)
		}
	}
}

// relay copies what s's source has ready, then arms it again with the
// poller; it ends s as pump does.
func (ts *tunnels) relay(s *side) {
	t := s.t
	if !t.enter() {
		return
	}
	defer t.leave()
	switch {
	case s.stream != nil:
		ts.relayStream(s)
		return
	case s.raw == nil:
		ts.relayTLS(s)
		return
	}
	for {
		n, buf, again, err := readNow(s.raw)
		if again {
			ts.idle(s)
			return
		}
		if err = s.pass(buf, n, &buffers, err); err == nil {
			continue
		}
		ts.end(s, err)
		return
	}
}

// tlsDrainWait is how long a relay over TLS waits for more once what its
// socket had is read: a record may still be arriving, and records already
// read from the socket are decrypted before it waits.
const tlsDrainWait = time.Millisecond

// relayTLS copies what s's TLS source has ready, records it read from the
// socket before included, then arms it again with the poller. A read that
// finds nothing more times out after tlsDrainWait; crypto/tls keeps a
// partial record across such a timeout.
func (ts *tunnels) relayTLS(s *side) {
	for {
		_ = s.src.SetReadDeadline(time.Now().Add(tlsDrainWait))
		buf := buffers.Get().(*[]byte)
		n, err := s.src.Read(*buf)
		if n <= 0 {
			buffers.Put(buf)
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			if n > 0 {
				if err = s.pass(buf, n, &buffers, nil); err != nil {
					ts.end(s, err)
					return
				}
			}
			_ = s.src.SetReadDeadline(time.Time{})
			ts.idle(s)
			return
		}
		if err = s.pass(buf, n, &buffers, err); err != nil {
			ts.end(s, err)
			return
		}
	}
}

// idle is where a relay ends once s's source has nothing more to read: s
// is armed again, unless its tunnel is stopping, and ended if it cannot
// be.
func (ts *tunnels) idle(s *side) {
	if s.t.stopping.Load() {
		return
	}
	if err := s.arm(); err != nil {
		ts.end(s, err)
	}
}

// pass writes the n bytes read into buf (from pool) to s's destination,
// feeding them to its frame watcher first, and returns buf to pool. It
// returns the read's error, or the write's when that failed.
func (s *side) pass(buf *[]byte, n int, pool *sync.Pool, err error) error {
	if n <= 0 {
		return err
	}
	s.f.feed((*buf)[:n])
	_, werr := s.dst.Write((*buf)[:n])
	pool.Put(buf)
	if werr != nil {
		return werr
	}
	return err
}

// pump copies s's source to its destination until the source ends,
// parked on the socket while it is idle.
func (ts *tunnels) pump(s *side) {
	defer s.t.leave()
	pool := &buffers
	if s.raw == nil {
		pool = &blockingBuffers
	}
	for {
		n, buf, err := readIdle(s.src, s.raw)
		if err = s.pass(buf, n, pool, err); err == nil {
			continue
		}
		ts.end(s, err)
		return
	}
}

// end ends side s after err: a clean end of its source is passed on as a
// half-close; anything else ends the tunnel. A stopping tunnel is left to
// stop.
func (ts *tunnels) end(s *side, err error) {
	t := s.t
	if t.stopping.Load() {
		return
	}
	if errors.Is(err, io.EOF) {
		if cw, ok := s.dst.(interface{ CloseWrite() error }); ok && cw.CloseWrite() == nil {
			ts.done(t, false)
			return
		}
	}
	ts.done(t, true)
}

// done is called once by each side as it ends, or with abort to end the
// tunnel at once: the last call (or the abort) closes both connections
// and lets t go.
func (ts *tunnels) done(t *tunnel, abort bool) {
	if !abort && t.left.Add(-1) > 0 {
		return
	}
	if !t.finished.CompareAndSwap(false, true) {
		return
	}
	if t.poll != nil {
		for _, s := range t.sides {
			s.forget()
		}
	}
	t.client.Close()
	t.back.Close()
	ts.mu.Lock()
	delete(ts.open, t)
	ts.mu.Unlock()
}

// shutdown stops every tunnel: it stops both copiers, writes a close
// frame 1012 (service restart) to each client and 1001 (going away) to
// each member where a frame boundary allows, and closes the connections.
func (ts *tunnels) shutdown() {
	ts.mu.Lock()
	ts.closed = true
	open := make([]*tunnel, 0, len(ts.open))
	for t := range ts.open {
		open = append(open, t)
	}
	clear(ts.open)
	ts.mu.Unlock()
	var wg sync.WaitGroup
	for _, t := range open {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.stop()
		}()
	}
	wg.Wait()
	if len(open) > 0 {
		ts.log.Debug("closed WebSocket tunnels", zap.Int("tunnels", len(open)))
	}
}

// stop ends t with close frames where they can be written cleanly.
func (t *tunnel) stop() {
	t.mu.Lock()
	t.stopping.Store(true)
	stopped := make(chan struct{})
	if t.active == 0 {
		close(stopped)
	} else {
		t.idle = stopped
	}
	t.mu.Unlock()
	if t.poll != nil {
		for _, s := range t.sides {
			s.forget()
		}
	}
	now := time.Now()
	_ = t.client.SetReadDeadline(now)
	_ = t.back.SetReadDeadline(now)
	select {
	case <-stopped:
		deadline := time.Now().Add(shutdownWait)
		if t.down.boundary() {
			_ = t.client.SetWriteDeadline(deadline)
			_, _ = t.client.Write(closeFrame(closeServiceRestart, "front door restarting", false))
		}
		if t.up.boundary() {
			_ = t.back.SetWriteDeadline(deadline)
			_, _ = t.back.Write(closeFrame(closeGoingAway, "front door restarting", true))
		}
	case <-time.After(shutdownWait):
	}
	t.client.Close()
	t.back.Close()
}

// waitConn returns the raw connection whose readiness says c has bytes to
// read: c's own, or under TLS the socket beneath.
func waitConn(c net.Conn) syscall.RawConn {
	if tc, ok := c.(*tls.Conn); ok {
		return rawConn(tc.NetConn())
	}
	return rawConn(c)
}

// rawConn returns c's raw connection when c is a plain socket (not TLS),
// so that reads can wait for data without holding a buffer.
func rawConn(c net.Conn) syscall.RawConn {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return nil
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return raw
}

// readNow reads what raw's socket has ready into a pooled buffer, without
// waiting: again reports that nothing was ready. io.EOF is returned at the
// end.
func readNow(raw syscall.RawConn) (n int, buf *[]byte, again bool, err error) {
	var rerr error
	err = raw.Read(func(fd uintptr) bool {
		buf = buffers.Get().(*[]byte)
		for {
			n, rerr = syscall.Read(int(fd), *buf)
			if rerr != syscall.EINTR {
				break
			}
		}
		return true
	})
	switch {
	case err != nil:
	case rerr == syscall.EAGAIN:
		again = true
	case rerr != nil:
		err = os.NewSyscallError("read", rerr)
	case n <= 0:
		err = io.EOF
	}
	if err != nil || again {
		if buf != nil {
			buffers.Put(buf)
		}
		return 0, nil, again, err
	}
	return n, buf, false, nil
}

// readIdle reads from c into a pooled buffer, which it takes only once
// bytes are ready when raw is set. io.EOF is returned at the end.
func readIdle(c net.Conn, raw syscall.RawConn) (int, *[]byte, error) {
	if raw == nil {
		buf := blockingBuffers.Get().(*[]byte)
		n, err := c.Read(*buf)
		if n == 0 {
			blockingBuffers.Put(buf)
			buf = nil
		}
		return n, buf, err
	}
	var (
		n    int
		rerr error
		buf  *[]byte
	)
	err := raw.Read(func(fd uintptr) bool {
		buf = buffers.Get().(*[]byte)
		for {
			n, rerr = syscall.Read(int(fd), *buf)
			if rerr != syscall.EINTR {
				break
			}
		}
		if rerr == syscall.EAGAIN {
			buffers.Put(buf)
			buf = nil
			return false
		}
		return true
	})
	switch {
	case err != nil:
	case rerr != nil:
		err = os.NewSyscallError("read", rerr)
	case n <= 0:
		err = io.EOF
	}
	if err != nil {
		if buf != nil {
			buffers.Put(buf)
		}
		return 0, nil, err
	}
	return n, buf, nil
}
