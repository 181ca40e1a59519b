package dwkdirect

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/dwk/fleet/appliance/fleet/protocol"
	"github.com/dwk/fleet/caddy/dwkaffinity"
)

// serveLocal hands r to the in-process app. After a retry answer it
// reports that r, its body restored, is to be replayed on another member,
// unless the app read more of the body than was kept; then the client gets
// the retry answer. An app that has not started its answer within
// ResponseTimeout is given up on, as a member would be: its context is
// cancelled and the client gets a 504 at once; whatever it writes later
// is dropped.
//
// The app's context is r's, cancelled on giving up through ConnContext
// when the server set it (HTTP/1: the 504 closes the connection), else a
// context of its own. With r's context the app gets r itself, which a
// replay then sends on: handlers must not modify their request (the
// http.Handler contract), except for reading its body, which is kept.
func (d *Direct) serveLocal(w http.ResponseWriter, r *http.Request, t dwkaffinity.Target) (replay bool) {
	if t.IsObject() {
		r.Header[protocol.ObjectIDHeader] = []string{t.IDString()}
	} else if _, sent := r.Header[protocol.ObjectIDHeader]; sent {
		delete(r.Header, protocol.ObjectIDHeader)
	}
	var kept *replayBody
	hasBody := r.Body != nil && r.Body != http.NoBody
	if hasBody && d.ReplayBody > 0 {
		kept = &replayBody{src: r.Body, limit: d.ReplayBody}
		r.Body = kept
	}
	rw := &retryCatcher{w: w}
	ar := r // the app's request
	if cancel, ok := r.Context().Value(connCancelKey{}).(context.CancelFunc); ok && r.ProtoMajor == 1 {
		rw.cancel = cancel // giving up ends the connection anyway
	} else {
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		rw.cancel, ar = cancel, r.WithContext(ctx)
	}
	timer := time.AfterFunc(time.Duration(d.ResponseTimeout), rw.giveUp)
	d.app.h.ServeHTTP(rw, ar)
	timer.Stop()
	if rw.finish() || !rw.retry {
		return false // answered (a 504 when given up on)
	}
	if hasBody && (kept == nil || kept.over) {
		// The body is gone: the client decides (the answer says retry).
		protocol.WriteRetry(w)
		return false
	}
	if kept != nil {
		r.Body = kept.replay()
	}
	return true
}

// connCancelKey is the context key of a connection's cancel function; see
// ConnContext.
type connCancelKey struct{}

// ConnContext is the ConnContext of an http.Server whose handler is
// App.Handler. It gives each connection a context that is cancelled when
// the app is given up on (after ResponseTimeout without an answer), so
// that a request served in process needs no cancellable context of its
// own. Giving up ends the connection (the 504 says Connection: close), so
// no later request on it is affected; HTTP/2 requests, which share their
// connection, still get contexts of their own.
func ConnContext(ctx context.Context, _ net.Conn) context.Context {
	ctx, cancel := context.WithCancel(ctx)
	return context.WithValue(ctx, connCancelKey{}, cancel)
}

// replayBody keeps the first limit bytes the app reads of a request body.
type replayBody struct {
	src   io.ReadCloser
	buf   bytes.Buffer
	limit int64
	over  bool // more than limit bytes were read: no replay
}

func (b *replayBody) Read(p []byte) (int, error) {
	n, err := b.src.Read(p)
	if n > 0 && !b.over {
		if int64(b.buf.Len()+n) > b.limit {
			b.over = true
			b.buf = bytes.Buffer{}
		} else {
			b.buf.Write(p[:n])
		}
	}
	return n, err
}

func (b *replayBody) Close() error { return b.src.Close() }

// overLimit reports whether the body cannot be replayed: more than limit
// bytes were read, or nothing is kept (b is nil).
func (b *replayBody) overLimit() bool { return b == nil || b.over }

// replay returns the body again: the kept bytes, then the unread rest.
func (b *replayBody) replay() io.ReadCloser {
	return struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(b.buf.Bytes()), b.src), b.src}
}
