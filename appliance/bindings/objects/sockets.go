package objects

import (
	"context"
	"errors"
	"io"
	"net"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/appliance/worker"
)

// socket is an accepted WebSocket. Its read loop, owned by the runtime's
// WaitGroup, turns incoming messages and the socket's end into events of the
// object.
type socket struct {
	in   *instance
	ws   *worker.WebSocket
	conn *websocket.Conn
	done chan struct{} // closed when the read loop ended
}

// readLoop reads until the connection ends, then reports the close to the
// object (unless the instance is stopping) and closes the connection.
func (rt *Runtime) readLoop(s *socket) {
	defer rt.wg.Done()
	defer close(s.done)
	defer s.conn.Close()
	for {
		mt, data, err := s.conn.ReadMessage()
		if err != nil {
			s.ws.MarkClosed()
			rt.removeSocket(s)
			code, reason := closeStatus(err)
			failed := socketFailed(err)
			s.in.socketEvent(rt.ctx, func(ctx context.Context, obj worker.Object) {
				if h, ok := obj.(worker.WebSocketErrorHandler); ok && failed {
					h.WebSocketError(ctx, s.ws, err)
				} else if h, ok := obj.(worker.WebSocketCloseHandler); ok {
					h.WebSocketClose(ctx, s.ws, code, reason)
				}
			})
			return
		}
		if mt == websocket.TextMessage {
			if resp, ok := s.in.autoRespond(data); ok {
				// Answered here: a hibernated object stays asleep.
				if err := s.ws.AutoRespond([]byte(resp)); err != nil {
					rt.log.Debug("websocket auto-response", "object", s.in.id, "err", err)
				}
				continue
			}
		}
		s.in.socketEvent(rt.ctx, func(ctx context.Context, obj worker.Object) {
			if h, ok := obj.(worker.WebSocketMessageHandler); ok {
				h.WebSocketMessage(ctx, s.ws, mt, data)
			}
		})
	}
}

// socketEvent runs fn in the object's turn, unless the instance is gone.
func (in *instance) socketEvent(ctx context.Context, fn func(context.Context, worker.Object)) {
	if !in.rt.enterExisting(in) {
		return
	}
	err := in.run(ctx, func(ctx context.Context, in *instance) error {
		return in.call(func() { fn(ctx, in.obj) })
	})
	if err != nil && !errors.Is(err, errGone) && !errors.Is(err, context.Canceled) {
		in.rt.log.Error("websocket event", "object", in.id, "err", err)
	}
}

func (rt *Runtime) removeSocket(s *socket) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	ss := s.in.sockets
	for i, x := range ss {
		if x == s {
			s.in.sockets = append(ss[:i:i], ss[i+1:]...)
			return
		}
	}
}

// socketFailed reports whether a read ended with an error rather than a
// close: a message over the size limit, or a protocol violation. A peer
// that went away (EOF, reset) is a close (1006).
func socketFailed(err error) bool {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		return false
	}
	if errors.Is(err, websocket.ErrReadLimit) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) {
		return false
	}
	return true
}

// closeStatus extracts the peer's close code and reason from a read error.
func closeStatus(err error) (int, string) {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Code, ce.Text
	}
	return websocket.CloseAbnormalClosure, ""
}

// closeSockets starts closing socks with code, or drops them when code is
// 0. It does not wait: their read loops may be queued for the turn the
// caller holds.
func closeSockets(socks []*socket, code int, reason string) {
	for _, s := range socks {
		if code != 0 {
			s.ws.Close(code, reason)
		} else {
			s.conn.Close()
		}
	}
}

// waitSockets waits for the read loops of socks to end; when ctx ends first
// it drops the remaining connections. Never call it holding a turn.
func waitSockets(ctx context.Context, socks []*socket) {
	for _, s := range socks {
		select {
		case <-s.done:
		case <-ctx.Done():
			s.conn.Close()
			<-s.done
		}
	}
}
