package objects

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"github.com/dwk/fleet/appliance/worker"
	"io"
	"net"
	"net/http"
	"strconv"
)

// recorder buffers a response for Stub.Fetch.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newRecorder() *recorder { return &recorder{header: http.Header{}} }

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(p)
}

// response turns the recording into a client-side response to req.
func (r *recorder) response(req *http.Request) *http.Response {
	status := r.status
	if status == 0 {
		status = http.StatusOK
	}
	h := r.header.Clone()
	body := r.body.Bytes()
	if h.Get("Content-Length") == "" {
		h.Set("Content-Length", strconv.Itoa(len(body)))
	}
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", status, http.StatusText(status)),
		StatusCode:    status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}
}

// trackingWriter notes whether the object wrote anything, and keeps
// hijacking (WebSocket upgrades) and flushing working. Before the first
// byte leaves, it has the event's writes committed (gate); if that fails
// the client gets 503 and nothing the object writes afterwards.
type trackingWriter struct {
	http.ResponseWriter
	gate   func() error
	wrote  bool
	failed bool
}

// open runs the gate once, before anything is written.
func (t *trackingWriter) open() bool {
	if t.wrote {
		return !t.failed
	}
	t.wrote = true
	if t.gate != nil {
		if err := t.gate(); err != nil {
			t.failed = true
			t.ResponseWriter.Header().Set("Retry-After", worker.RetryAfter)
			http.Error(t.ResponseWriter, "object storage unavailable: "+err.Error(), http.StatusServiceUnavailable)
			return false
		}
	}
	return true
}

func (t *trackingWriter) WriteHeader(code int) {
	if t.open() {
		t.ResponseWriter.WriteHeader(code)
	}
}

func (t *trackingWriter) Write(p []byte) (int, error) {
	if !t.open() {
		return 0, errStorageCommit
	}
	return t.ResponseWriter.Write(p)
}

// Hijack passes through to the underlying writer for WebSocket upgrades.
func (t *trackingWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := t.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("response writer does not support hijacking")
	}
	if !t.open() {
		return nil, nil, errStorageCommit
	}
	return h.Hijack()
}

// Flush passes through to the underlying writer.
func (t *trackingWriter) Flush() {
	if !t.open() {
		return
	}
	if f, ok := t.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (t *trackingWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }

// errStorageCommit is returned by writes after the response's gate failed.
var errStorageCommit = errors.New("objects: response withheld: the object's storage commit failed")
