package dwkdirect

import (
	"bufio"
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

// tunnel is one spliced WebSocket: the client's connection to the front
// door and the front door's to the member.
type tunnel struct {
	client, back net.Conn
	// up and down track WebSocket frame boundaries in each direction, so
	// that a close frame is only ever written between two frames.
	up, down frames
	stopping atomic.Bool
	running  sync.WaitGroup
	left     atomic.Int32 // copiers still running; the last closes both
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

// start runs t's two copiers, or closes t when the handler has stopped.
func (ts *tunnels) start(t *tunnel) {
	ts.mu.Lock()
	if ts.closed {
		ts.mu.Unlock()
		t.client.Close()
		t.back.Close()
		return
	}
	ts.open[t] = struct{}{}
	ts.mu.Unlock()
	t.left.Store(2)
	t.running.Add(2)
	go ts.pump(t, t.client, t.back, &t.up)
	go ts.pump(t, t.back, t.client, &t.down)
}

// pump copies src to dst until src ends. A clean end is passed on as a
// half-close; anything else ends the tunnel.
func (ts *tunnels) pump(t *tunnel, src, dst net.Conn, f *frames) {
	defer t.running.Done()
	raw := rawConn(src)
	pool := &buffers
	if raw == nil {
		pool = &blockingBuffers
	}
	for {
		n, buf, err := readIdle(src, raw)
		if n > 0 {
			f.feed((*buf)[:n])
			_, werr := dst.Write((*buf)[:n])
			pool.Put(buf)
			if werr != nil {
				err = werr
			}
		}
		if err == nil {
			continue
		}
		if t.stopping.Load() {
			return
		}
		if errors.Is(err, io.EOF) {
			if cw, ok := dst.(interface{ CloseWrite() error }); ok && cw.CloseWrite() == nil {
				ts.done(t, false)
				return
			}
		}
		ts.done(t, true)
		return
	}
}

// done is called once by each copier as it ends; abort closes both
// connections at once (the other copier then ends too).
func (ts *tunnels) done(t *tunnel, abort bool) {
	if abort {
		t.client.Close()
		t.back.Close()
	}
	if t.left.Add(-1) > 0 {
		return
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
	t.stopping.Store(true)
	now := time.Now()
	_ = t.client.SetReadDeadline(now)
	_ = t.back.SetReadDeadline(now)
	stopped := make(chan struct{})
	go func() {
		t.running.Wait()
		close(stopped)
	}()
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
