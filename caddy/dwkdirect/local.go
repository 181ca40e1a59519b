package dwkdirect

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/fleet/protocol"
	"github.com/dwk/fleet/caddy/dwkaffinity"
)

// serveLocal hands r to the in-process app. A retry answer is replayed
// with retry (on another member), unless the app read more of the body
// than was kept; then the client gets the retry answer. An app that has
// not started its answer within ResponseTimeout is given up on, as a
// member would be: its context is cancelled and the client gets a 504 at
// once; whatever it writes later is dropped.
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
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	rw := &retryCatcher{w: w}
	gaveUp := make(chan struct{})
	timer := time.AfterFunc(time.Duration(d.ResponseTimeout), func() {
		defer close(gaveUp)
		if rw.abandon() {
			cancel()
			gatewayTimeout(w)
		}
	})
	d.app.h.ServeHTTP(rw, r.WithContext(ctx))
	if !timer.Stop() {
		<-gaveUp // the 504 is written before the handler returns
		if rw.abandoned {
			return nil
		}
	}
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

// gatewayTimeout answers that the replica did not answer in time.
func gatewayTimeout(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	http.Error(w, "Gateway Timeout: the replica did not answer in time", http.StatusGatewayTimeout)
	_ = http.NewResponseController(w).Flush()
}

// retryCatcher is the response writer the app writes to. It holds the
// app's headers back until the status is known, swallows a retry answer,
// and drops everything once the app was given up on (abandon). Its
// methods may race only with abandon, which its mutex orders.
type retryCatcher struct {
	w http.ResponseWriter
	h http.Header // the app's headers until the response starts

	mu        sync.Mutex
	wrote     bool // the response started (or the connection was hijacked)
	retry     bool // the app answered with a retry answer
	abandoned bool // the app did not start its answer in time
}

// abandon gives up on the app unless its answer started; it reports
// whether it did.
func (c *retryCatcher) abandon() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.wrote || c.retry {
		return false
	}
	c.abandoned = true
	return true
}

// Header returns the headers to send.
func (c *retryCatcher) Header() http.Header {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.wrote {
		return c.w.Header()
	}
	if c.h == nil {
		c.h = make(http.Header)
	}
	return c.h
}

// WriteHeader starts the response, unless it is a retry answer.
func (c *retryCatcher) WriteHeader(code int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writeHeader(code)
}

func (c *retryCatcher) writeHeader(code int) {
	switch {
	case c.abandoned || c.retry:
		return
	case c.wrote:
		c.w.WriteHeader(code)
		return
	case protocol.IsRetry(code, c.h):
		c.retry = true
		return
	}
	dst := c.w.Header()
	for k, v := range c.h {
		dst[k] = v
	}
	if code >= 200 || code == http.StatusSwitchingProtocols {
		c.wrote, c.h = true, nil
	}
	c.w.WriteHeader(code)
}

// Write writes body bytes; those of a retry answer, or of an app given up
// on, are dropped.
func (c *retryCatcher) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.abandoned {
		return 0, http.ErrHandlerTimeout
	}
	if c.retry {
		return len(p), nil
	}
	if !c.wrote {
		c.writeHeader(http.StatusOK)
	}
	return c.w.Write(p)
}

// Flush sends what was written so far.
func (c *retryCatcher) Flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.abandoned || c.retry {
		return
	}
	if !c.wrote {
		c.writeHeader(http.StatusOK)
	}
	_ = http.NewResponseController(c.w).Flush()
}

// Hijack hands the client's connection to the app (WebSockets).
func (c *retryCatcher) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.abandoned {
		return nil, nil, http.ErrHandlerTimeout
	}
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
