// Package inprocess calls an http.Handler as if over HTTP, without a
// connection: the handler runs in a goroutine of its own and its response
// streams back through a pipe, so the caller sees the status and headers
// as soon as the handler sends them and reads the body while it is
// written.
//
// Under failure: a handler that panics before sending headers yields a 500
// response; after, the body ends with an error. A caller that closes the
// body early makes the handler's further writes fail. If ctx ends before
// the headers arrive, RoundTrip returns ctx's error (the handler sees the
// same ended context).
package inprocess

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
)

// ErrUpgrade is returned by RoundTrip for a WebSocket (or any other
// protocol) upgrade: it needs a connection to hand over.
var ErrUpgrade = errors.New("inprocess: a protocol upgrade needs a live request; pass it with ServeHTTP")

// RoundTrip runs h on req (with ctx) and returns its response once the
// handler has sent its headers, written body bytes, flushed or returned.
// The caller must close the response body.
func RoundTrip(ctx context.Context, h http.Handler, req *http.Request) (*http.Response, error) {
	if req.Header.Get("Upgrade") != "" {
		return nil, ErrUpgrade
	}
	req = req.Clone(ctx)
	if req.Body == nil {
		req.Body = http.NoBody
	}
	if req.RequestURI == "" {
		req.RequestURI = req.URL.RequestURI()
	}
	pr, pw := io.Pipe()
	w := &writer{header: http.Header{}, body: pw, ready: make(chan struct{})}
	go func() {
		var err error
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("inprocess: handler panicked: %v", p)
				if !w.sent() {
					w.header = http.Header{"Content-Type": {"text/plain; charset=utf-8"}}
					w.WriteHeader(http.StatusInternalServerError)
					io.WriteString(pw, "internal error\n")
				}
			}
			w.WriteHeader(http.StatusOK)
			pw.CloseWithError(err)
		}()
		h.ServeHTTP(w, req)
	}()
	select {
	case <-w.ready:
	case <-ctx.Done():
		pr.CloseWithError(ctx.Err())
		return nil, ctx.Err()
	}
	return w.response(req, pr), nil
}

// writer is the handler's side: headers until the first write, then the
// pipe.
type writer struct {
	header http.Header
	body   *io.PipeWriter

	once   sync.Once
	ready  chan struct{}
	status int
	sentH  http.Header // the headers as sent
}

var (
	_ http.ResponseWriter = (*writer)(nil)
	_ http.Flusher        = (*writer)(nil)
)

func (w *writer) Header() http.Header { return w.header }

// WriteHeader sends the status and headers once; informational codes are
// dropped, as a client that does not ask for them never sees them.
func (w *writer) WriteHeader(code int) {
	if code >= 100 && code < 200 {
		return
	}
	w.once.Do(func() {
		w.status = code
		w.sentH = w.header.Clone()
		close(w.ready)
	})
}

func (w *writer) sent() bool {
	select {
	case <-w.ready:
		return true
	default:
		return false
	}
}

func (w *writer) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(p)
}

// Flush sends the headers; the body is unbuffered already.
func (w *writer) Flush() { w.WriteHeader(http.StatusOK) }

func (w *writer) response(req *http.Request, body io.ReadCloser) *http.Response {
	resp := &http.Response{
		Status:        strconv.Itoa(w.status) + " " + http.StatusText(w.status),
		StatusCode:    w.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        w.sentH,
		Body:          body,
		ContentLength: -1,
		Request:       req,
	}
	if n, err := strconv.ParseInt(w.sentH.Get("Content-Length"), 10, 64); err == nil && n >= 0 {
		resp.ContentLength = n
	}
	if req.Method == http.MethodHead || w.status == http.StatusNoContent || w.status == http.StatusNotModified {
		body.Close()
		resp.Body = http.NoBody
	}
	return resp
}
