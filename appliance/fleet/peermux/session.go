// Package peermux carries many byte streams over one connection between
// two replicas (a session), so that what a replica keeps open towards a
// peer — the front door's WebSocket tunnels to a lease holder — costs a
// small struct per stream instead of a connection, a TLS state and a
// handshake each.
//
// One side opens streams (Pool, over connections from the peer link, which
// authenticates the peer and the upgrade request); the other accepts them
// (Listener, a net.Listener an http.Server serves like any other). Each
// stream is a net.Conn with deadlines and half-close, and with flow
// control: a side sends at most Window bytes its peer has not read yet, so
// a slow reader never stalls the session or the other streams, and the
// session's reader never blocks on a stream. An idle stream holds no
// buffer and runs no goroutine; Notify lets a relay wait for one without
// a goroutine.
//
// Frames: a 9-byte header (type, stream id, big-endian uint32; length,
// big-endian uint32), followed for data frames by length bytes.
package peermux

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"
)

// Window is how many bytes a side may send on a stream before its peer
// has read them.
const Window = 256 << 10

// maxData is the largest data frame's payload.
const maxData = 16 << 10

// writeTimeout bounds the write of one frame: a peer that has not read
// the session for that long is taken as gone, and the session closes.
const writeTimeout = 10 * time.Second

// acceptBacklog is how many opened streams wait for Accept; an open past
// it is refused.
const acceptBacklog = 128

// headerLen is a frame header's size.
const headerLen = 9

// Frame types.
const (
	frameOpen     byte = 1 // opener → acceptor: a new stream
	frameAccepted byte = 2 // acceptor → opener: the stream is accepted
	frameData     byte = 3 // payload bytes
	frameCredit   byte = 4 // length more bytes may be sent
	frameEnd      byte = 5 // the sender sends no more (half-close)
	frameClose    byte = 6 // the sender is gone: it neither sends nor reads
)

// ErrSessionClosed: the session a stream ran over has closed.
var ErrSessionClosed = errors.New("peermux: session closed")

// errRefused: the peer refused to accept a stream.
var errRefused = errors.New("peermux: stream refused by the peer")

// frames are buffers of one frame: what a write sends, and what a data
// frame's payload is read into.
var frames = sync.Pool{New: func() any { b := make([]byte, headerLen+maxData); return &b }}

// Session is one connection carrying streams.
type Session struct {
	conn   net.Conn
	opener bool               // this side opens streams; the other accepts them
	accept func(*Stream) bool // the acceptor's hand-off, false when full; must not block

	wmu sync.Mutex // one frame at a time on conn

	mu      sync.Mutex
	streams map[uint32]*Stream
	next    uint32
	err     error // why the session closed, once it has
	done    chan struct{}
}

// newSession runs a session over conn, reading through br (which may
// hold bytes read with the upgrade).
func newSession(conn net.Conn, br *bufio.Reader, opener bool, accept func(*Stream) bool) *Session {
	s := &Session{conn: conn, opener: opener, accept: accept, streams: make(map[uint32]*Stream), done: make(chan struct{})}
	go s.read(br)
	return s
}

// Done is closed when the session has closed.
func (s *Session) Done() <-chan struct{} { return s.done }

// Err is why the session closed, nil while it runs.
func (s *Session) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close closes the session and every stream over it.
func (s *Session) Close() error {
	s.fail(ErrSessionClosed)
	return nil
}

// fail closes the session for err (the first error wins).
func (s *Session) fail(err error) {
	s.mu.Lock()
	if s.err != nil {
		s.mu.Unlock()
		return
	}
	s.err = err
	streams := s.streams
	s.streams = nil
	close(s.done)
	s.mu.Unlock()
	s.conn.Close()
	for _, st := range streams {
		st.broken(err)
	}
}

// Open opens a stream and waits, until ctx ends, for the peer to accept
// it. A session whose peer does not answer by ctx's deadline is closed:
// it has stopped reading.
func (s *Session) Open(ctx context.Context) (*Stream, error) {
	if !s.opener {
		return nil, errors.New("peermux: this side accepts streams; it cannot open one")
	}
	s.mu.Lock()
	if s.err != nil {
		err := s.err
		s.mu.Unlock()
		return nil, err
	}
	s.next++
	if s.next == 0 {
		s.mu.Unlock()
		s.fail(errors.New("peermux: stream ids used up"))
		return nil, ErrSessionClosed
	}
	st := newStream(s, s.next)
	s.streams[st.id] = st
	s.mu.Unlock()
	if err := s.write(frameOpen, st.id, 0, nil); err != nil {
		return nil, err
	}
	select {
	case <-st.accepted:
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			s.fail(fmt.Errorf("peermux: the peer did not accept a stream in time: %w", ctx.Err()))
		} else {
			st.Close()
		}
		return nil, ctx.Err()
	}
	st.mu.Lock()
	err := st.err
	st.mu.Unlock()
	if err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}

// forget drops st from the session.
func (s *Session) forget(st *Stream) {
	s.mu.Lock()
	if s.streams[st.id] == st {
		delete(s.streams, st.id)
	}
	s.mu.Unlock()
}

// lookup returns the stream id, nil if unknown (closed on this side).
func (s *Session) lookup(id uint32) *Stream {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.streams[id]
}

// write writes one frame: n is the length of a frame without payload.
func (s *Session) write(typ byte, id, n uint32, payload []byte) error {
	buf := frames.Get().(*[]byte)
	defer frames.Put(buf)
	b := (*buf)[:headerLen+len(payload)]
	if payload != nil {
		n = uint32(len(payload))
		copy(b[headerLen:], payload)
	}
	b[0] = typ
	binary.BigEndian.PutUint32(b[1:5], id)
	binary.BigEndian.PutUint32(b[5:9], n)
	s.wmu.Lock()
	if err := s.Err(); err != nil {
		s.wmu.Unlock()
		return err
	}
	_ = s.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	_, err := s.conn.Write(b)
	s.wmu.Unlock()
	if err != nil {
		s.fail(fmt.Errorf("peermux: write: %w", err))
		return s.Err()
	}
	return nil
}

// read reads frames until the session ends. It never blocks on a stream:
// data goes to the stream's buffer, bounded by Window.
func (s *Session) read(br *bufio.Reader) {
	var hdr [headerLen]byte
	for {
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			s.fail(fmt.Errorf("peermux: read: %w", err))
			return
		}
		typ, id, n := hdr[0], binary.BigEndian.Uint32(hdr[1:5]), binary.BigEndian.Uint32(hdr[5:9])
		if err := s.handle(br, typ, id, n); err != nil {
			s.fail(err)
			return
		}
	}
}

// handle acts on one frame.
func (s *Session) handle(br *bufio.Reader, typ byte, id, n uint32) error {
	switch typ {
	case frameOpen:
		if s.opener {
			return errors.New("peermux: protocol error: the opening side was sent an open")
		}
		st := newStream(s, id)
		s.mu.Lock()
		if s.err != nil || s.streams[id] != nil {
			s.mu.Unlock()
			return errors.New("peermux: protocol error: a stream id was opened twice")
		}
		s.streams[id] = st
		s.mu.Unlock()
		if !s.accept(st) {
			s.forget(st)
			go s.write(frameClose, id, 0, nil)
		}
		return nil
	case frameData:
		if n > maxData {
			return fmt.Errorf("peermux: protocol error: a data frame of %d bytes", n)
		}
		st := s.lookup(id)
		if st == nil {
			_, err := br.Discard(int(n))
			return err
		}
		return st.receive(br, int(n))
	}
	if n != 0 && typ != frameCredit {
		return fmt.Errorf("peermux: protocol error: frame type %d with length %d", typ, n)
	}
	st := s.lookup(id)
	if st == nil {
		return nil
	}
	switch typ {
	case frameAccepted:
		st.acceptedByPeer()
	case frameCredit:
		st.credit(int(n))
	case frameEnd:
		st.peerEnded()
	case frameClose:
		s.forget(st)
		st.peerClosed()
	default:
		return fmt.Errorf("peermux: protocol error: unknown frame type %d", typ)
	}
	return nil
}
