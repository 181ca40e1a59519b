package dwkdirect

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"

	"github.com/dwk/fleet/appliance/fleet/protocol"
	"github.com/dwk/fleet/caddy/dwkaffinity"
)

// serveLocal hands r to the in-process app. A retry answer is replayed
// with retry (on another member), unless the app read more of the body
// than was kept; then the client gets the retry answer.
func (d *Direct) serveLocal(w http.ResponseWriter, r *http.Request, t dwkaffinity.Target, retry func(http.ResponseWriter, *http.Request) error) error {
	if t.IsObject() {
		r.Header.Set(protocol.ObjectIDHeader, t.ID.String())
	} else if _, sent := r.Header[protocol.ObjectIDHeader]; sent {
		r.Header.Del(protocol.ObjectIDHeader)
	}
	var kept *replayBody
	hasBody := r.Body != nil && r.Body != http.NoBody
	if hasBody && d.ReplayBody > 0 {
		kept = &replayBody{src: r.Body, limit: d.ReplayBody}
		r.Body = kept
	}
	rw := newRetryCatcher(w)
	d.app.h.ServeHTTP(rw, r)
	if !rw.retry {
		return nil
	}
	if hasBody && (kept == nil || kept.over) {
		// The body is gone: the client decides (the answer says retry).
		protocol.WriteRetry(w)
		return nil
	}
	if kept != nil {
		r.Body = kept.replay()
	}
	return retry(w, r)
}

// retryCatcher is the response writer the app writes to. It swallows a
// retry answer, and takes back the headers the app set for it.
type retryCatcher struct {
	w     http.ResponseWriter
	pre   http.Header // the client response's headers before the app ran, if any
	wrote bool        // the response started (or the connection was hijacked)
	retry bool        // the app answered with a retry answer
}

// newRetryCatcher wraps w.
func newRetryCatcher(w http.ResponseWriter) *retryCatcher {
	c := &retryCatcher{w: w}
	if h := w.Header(); len(h) > 0 {
		c.pre = h.Clone()
	}
	return c
}

// Header returns the headers to send.
func (c *retryCatcher) Header() http.Header { return c.w.Header() }

// WriteHeader starts the response, unless it is a retry answer.
func (c *retryCatcher) WriteHeader(code int) {
	switch {
	case c.wrote:
		c.w.WriteHeader(code)
		return
	case c.retry:
		return
	case protocol.IsRetry(code, c.w.Header()):
		c.retry = true
		h := c.w.Header()
		clear(h)
		for k, v := range c.pre {
			h[k] = v
		}
		return
	}
	if code >= 200 || code == http.StatusSwitchingProtocols {
		c.wrote = true
	}
	c.w.WriteHeader(code)
}

// Write writes body bytes; those of a retry answer are dropped.
func (c *retryCatcher) Write(p []byte) (int, error) {
	if c.retry {
		return len(p), nil
	}
	if !c.wrote {
		c.WriteHeader(http.StatusOK)
	}
	return c.w.Write(p)
}

// Flush sends what was written so far.
func (c *retryCatcher) Flush() {
	if c.retry {
		return
	}
	if !c.wrote {
		c.WriteHeader(http.StatusOK)
	}
	_ = http.NewResponseController(c.w).Flush()
}

// Hijack hands the client's connection to the app (WebSockets).
func (c *retryCatcher) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(c.w).Hijack()
	if err == nil {
		c.wrote = true
	}
	return conn, brw, err
}

// Unwrap gives http.ResponseController the client's response writer.
func (c *retryCatcher) Unwrap() http.ResponseWriter { return c.w }

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
