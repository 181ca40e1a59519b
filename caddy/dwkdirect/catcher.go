package dwkdirect

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"sync"

	"github.com/dwk/fleet/appliance/fleet/protocol"
)

// gatewayTimeout answers that the replica did not answer in time.
func gatewayTimeout(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	http.Error(w, "Gateway Timeout: the replica did not answer in time", http.StatusGatewayTimeout)
	_ = http.NewResponseController(w).Flush()
}

// retryCatcher is the response writer the app writes to. It holds the
// app's headers back until the status is known, swallows a retry answer,
// and drops everything once the app was given up on (giveUp). Its methods
// may race only with giveUp, which its mutex orders.
type retryCatcher struct {
	w      http.ResponseWriter
	h      http.Header        // the app's headers until the response starts
	cancel context.CancelFunc // cancels the app's context

	mu        sync.Mutex
	wrote     bool // the response started (or the connection was hijacked)
	retry     bool // the app answered with a retry answer
	abandoned bool // the app did not start its answer in time
	finished  bool // the app's handler returned
}

// giveUp answers 504 and cancels the app's context, unless the app's
// answer started or its handler returned. The 504 is written under the
// mutex, so that it is complete when finish returns.
func (c *retryCatcher) giveUp() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.wrote || c.retry || c.finished {
		return
	}
	c.abandoned = true
	c.cancel()
	gatewayTimeout(c.w)
}

// finish records that the app's handler returned; from then on giveUp
// does nothing. It reports whether the app was given up on.
func (c *retryCatcher) finish() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.finished = true
	return c.abandoned
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
	if drop, n, err := c.dropLocked(len(p)); drop {
		return n, err
	}
	return c.w.Write(p)
}

// WriteString is Write for a string, passed on without a copy (io.WriteString).
func (c *retryCatcher) WriteString(s string) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if drop, n, err := c.dropLocked(len(s)); drop {
		return n, err
	}
	return io.WriteString(c.w, s)
}

// ReadFrom copies src into the response with the client's writer's own
// ReadFrom when it has one (net/http's uses sendfile or its buffered
// writer), so that an app streaming a body with io.Copy gets no 32 KiB
// copy buffer of its own. Once the response has started, giveUp does
// nothing, so the copy runs without the mutex.
func (c *retryCatcher) ReadFrom(src io.Reader) (int64, error) {
	c.mu.Lock()
	drop, _, err := c.dropLocked(0)
	c.mu.Unlock()
	switch {
	case err != nil:
		return 0, err
	case drop:
		return io.Copy(io.Discard, src)
	}
	return io.Copy(c.w, src)
}

// dropLocked reports whether n body bytes are dropped, and then what
// writing them returns; otherwise it starts the response if the app did
// not. c.mu is held.
func (c *retryCatcher) dropLocked(n int) (drop bool, _ int, _ error) {
	switch {
	case c.abandoned:
		return true, 0, http.ErrHandlerTimeout
	case c.retry:
		return true, n, nil
	case !c.wrote:
		c.writeHeader(http.StatusOK)
	}
	return false, 0, nil
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
