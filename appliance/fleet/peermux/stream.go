package peermux

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"time"
)

// errPeerClosed: writing to a stream the peer has closed.
var errPeerClosed = errors.New("peermux: stream closed by the peer")

// Stream is one byte stream of a session: a net.Conn.
type Stream struct {
	s        *Session
	id       uint32
	accepted chan struct{} // opener: closed when the peer accepted (or the stream failed)

	mu         sync.Mutex
	buf        []byte // received, not read yet; nil when empty
	unread     int    // bytes read but not yet credited to the peer
	ended      bool   // the peer sends no more
	wrote      bool   // this side sent its end
	closed     bool   // closed on this side
	err        error  // the stream failed (session closed, peer closed it)
	sendWindow int
	rdl, wdl   time.Time
	changed    chan struct{} // made by a waiter, closed on the next change it may want
	notify     func()        // run once when there is something to read
	gotAccept  bool
}

func newStream(s *Session, id uint32) *Stream {
	return &Stream{s: s, id: id, accepted: make(chan struct{}), sendWindow: Window}
}

// wakeLocked wakes the waiters and runs the armed notification once
// there is something to read.
func (st *Stream) wakeLocked() {
	if st.changed != nil {
		close(st.changed)
		st.changed = nil
	}
	if f := st.notify; f != nil && st.readableLocked() {
		st.notify = nil
		go f()
	}
}

// readableLocked reports whether a read would not wait: bytes, the end,
// a failure or a close.
func (st *Stream) readableLocked() bool {
	return len(st.buf) > 0 || st.ended || st.err != nil || st.closed
}

// settleAcceptLocked ends the opener's wait for the peer's answer.
func (st *Stream) settleAcceptLocked() {
	if !st.gotAccept {
		st.gotAccept = true
		close(st.accepted)
	}
}

// receive reads a data frame's n bytes from br into the buffer.
func (st *Stream) receive(br *bufio.Reader, n int) error {
	tmp := frames.Get().(*[]byte)
	defer frames.Put(tmp)
	if _, err := io.ReadFull(br, (*tmp)[:n]); err != nil {
		return err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.buf)+st.unread+n > Window {
		return fmt.Errorf("peermux: protocol error: stream %d sent past its window", st.id)
	}
	if st.closed || st.err != nil {
		return nil
	}
	st.buf = append(st.buf, (*tmp)[:n]...)
	st.wakeLocked()
	return nil
}

func (st *Stream) acceptedByPeer() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.settleAcceptLocked()
}

func (st *Stream) credit(n int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.sendWindow += n
	st.wakeLocked()
}

func (st *Stream) peerEnded() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.ended = true
	st.wakeLocked()
}

// peerClosed: the peer is gone; what it sent before can still be read.
func (st *Stream) peerClosed() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.ended = true
	if st.err == nil {
		st.err = errPeerClosed
	}
	if !st.gotAccept {
		st.err = errRefused
		st.settleAcceptLocked()
	}
	st.wakeLocked()
}

// broken: the session closed.
func (st *Stream) broken(err error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.err == nil || st.err == errPeerClosed {
		st.err = err
	}
	st.settleAcceptLocked()
	st.wakeLocked()
}

// wait waits, with st.mu held (and released meanwhile), for a change or
// the deadline dl; it reports false once dl has passed.
func (st *Stream) wait(dl time.Time) bool {
	var timeout <-chan time.Time
	if !dl.IsZero() {
		d := time.Until(dl)
		if d <= 0 {
			return false
		}
		t := time.NewTimer(d)
		defer t.Stop()
		timeout = t.C
	}
	if st.changed == nil {
		st.changed = make(chan struct{})
	}
	ch := st.changed
	st.mu.Unlock()
	select {
	case <-ch:
	case <-timeout:
	}
	st.mu.Lock()
	return true
}

// Read reads what the peer sent, waiting for it until the read deadline.
func (st *Stream) Read(p []byte) (int, error) {
	st.mu.Lock()
	for {
		if n, ok, err := st.takeLocked(p); ok {
			return n, err
		}
		if !st.wait(st.rdl) {
			st.mu.Unlock()
			return 0, os.ErrDeadlineExceeded
		}
	}
}

// ReadNow reads what the peer sent without waiting: 0, nil when nothing
// is there yet.
func (st *Stream) ReadNow(p []byte) (int, error) {
	st.mu.Lock()
	n, ok, err := st.takeLocked(p)
	if !ok {
		st.mu.Unlock()
	}
	return n, err
}

// takeLocked reads from the buffer, or reports the end or a failure;
// ok false (st.mu still held): nothing to report yet. With ok, st.mu is
// released.
func (st *Stream) takeLocked(p []byte) (n int, ok bool, err error) {
	switch {
	case st.closed:
		st.mu.Unlock()
		return 0, true, net.ErrClosed
	case len(st.buf) > 0:
		n = copy(p, st.buf)
		st.buf = st.buf[n:]
		if len(st.buf) == 0 {
			st.buf = nil
		}
		st.unread += n
		credit := 0
		if st.unread >= Window/4 {
			credit, st.unread = st.unread, 0
		}
		st.mu.Unlock()
		if credit > 0 {
			_ = st.s.write(frameCredit, st.id, uint32(credit), nil)
		}
		return n, true, nil
	case st.ended && (st.err == nil || st.err == errPeerClosed):
		st.mu.Unlock()
		return 0, true, io.EOF
	case st.err != nil:
		err = st.err
		st.mu.Unlock()
		return 0, true, err
	}
	if !st.rdl.IsZero() && !time.Now().Before(st.rdl) {
		st.mu.Unlock()
		return 0, true, os.ErrDeadlineExceeded
	}
	return 0, false, nil
}

// Notify runs f once, in a goroutine of its own, as soon as the stream
// has something to read (bytes, its end or a failure): at once if it has.
// Notify(nil) disarms it.
func (st *Stream) Notify(f func()) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.notify = f
	st.wakeLocked()
}

// Write sends p, waiting for the peer's window until the write deadline.
func (st *Stream) Write(p []byte) (int, error) {
	total := 0
	st.mu.Lock()
	for len(p) > 0 {
		switch {
		case st.closed:
			st.mu.Unlock()
			return total, net.ErrClosed
		case st.err != nil:
			err := st.err
			st.mu.Unlock()
			return total, err
		case st.wrote:
			st.mu.Unlock()
			return total, errors.New("peermux: write after CloseWrite")
		case st.sendWindow == 0:
			if !st.wait(st.wdl) {
				st.mu.Unlock()
				return total, os.ErrDeadlineExceeded
			}
			continue
		}
		n := min(len(p), st.sendWindow, maxData)
		st.sendWindow -= n
		st.mu.Unlock()
		if err := st.s.write(frameData, st.id, 0, p[:n]); err != nil {
			return total, err
		}
		total += n
		p = p[n:]
		st.mu.Lock()
	}
	st.mu.Unlock()
	return total, nil
}

// CloseWrite tells the peer nothing more will be sent (its reads then
// end with io.EOF).
func (st *Stream) CloseWrite() error {
	st.mu.Lock()
	if st.wrote || st.closed || st.err != nil {
		st.mu.Unlock()
		return nil
	}
	st.wrote = true
	st.mu.Unlock()
	return st.s.write(frameEnd, st.id, 0, nil)
}

// Close closes the stream on both sides; the peer reads what was sent
// before, then io.EOF.
func (st *Stream) Close() error {
	st.mu.Lock()
	if st.closed {
		st.mu.Unlock()
		return nil
	}
	st.closed = true
	st.buf = nil
	send := st.err == nil
	st.wakeLocked()
	st.mu.Unlock()
	st.s.forget(st)
	if send {
		_ = st.s.write(frameClose, st.id, 0, nil)
	}
	return nil
}

// LocalAddr is the session connection's local address.
func (st *Stream) LocalAddr() net.Addr { return st.s.conn.LocalAddr() }

// RemoteAddr is the session connection's remote address.
func (st *Stream) RemoteAddr() net.Addr { return st.s.conn.RemoteAddr() }

// SetDeadline sets the read and write deadlines.
func (st *Stream) SetDeadline(t time.Time) error { return st.setDeadlines(&t, &t) }

// SetReadDeadline sets the read deadline; a blocked Read wakes to it.
func (st *Stream) SetReadDeadline(t time.Time) error { return st.setDeadlines(&t, nil) }

// SetWriteDeadline sets the deadline of waiting for the peer's window.
func (st *Stream) SetWriteDeadline(t time.Time) error { return st.setDeadlines(nil, &t) }

// setDeadlines sets the deadlines given and wakes the waiters to them.
func (st *Stream) setDeadlines(read, write *time.Time) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if read != nil {
		st.rdl = *read
	}
	if write != nil {
		st.wdl = *write
	}
	st.wakeLocked()
	return nil
}

var _ net.Conn = (*Stream)(nil)
