package server

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/dwk/fleet/appliance/process/metrics"
)

// instrument counts and times each request by worker. The writer it passes
// on still hijacks (WebSockets) and flushes.
func instrument(m *metrics.Metrics, worker string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		code := sw.status()
		m.Requests.WithLabelValues(worker, strconv.Itoa(code/100)+"xx").Inc()
		if !sw.hijacked {
			m.RequestDuration.WithLabelValues(worker).Observe(time.Since(start).Seconds())
		}
	})
}

type statusWriter struct {
	http.ResponseWriter
	code     int
	hijacked bool
}

// status is the status the handler answered with: 101 for a hijacked
// connection, 200 when it wrote nothing.
func (w *statusWriter) status() int {
	switch {
	case w.hijacked:
		return http.StatusSwitchingProtocols
	case w.code == 0:
		return http.StatusOK
	}
	return w.code
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Hijack lets WebSocket upgrades through.
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("response writer cannot hijack")
	}
	c, rw, err := h.Hijack()
	if err == nil {
		w.hijacked = true
	}
	return c, rw, err
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// memberWriter sets X-Dwk-Member when the response starts, unless the
// handler (a forwarding proxy) already set it.
type memberWriter struct {
	http.ResponseWriter
	member  string
	written bool
}

// MemberHeader is the response header naming the replica that served.
const MemberHeader = "X-Dwk-Member"

func (w *memberWriter) stamp() {
	if w.written {
		return
	}
	w.written = true
	h := w.ResponseWriter.Header()
	if vs := h.Values(MemberHeader); len(vs) > 0 {
		h.Set(MemberHeader, vs[len(vs)-1])
		return
	}
	h.Set(MemberHeader, w.member)
}

func (w *memberWriter) WriteHeader(code int) {
	w.stamp()
	w.ResponseWriter.WriteHeader(code)
}

func (w *memberWriter) Write(b []byte) (int, error) {
	w.stamp()
	return w.ResponseWriter.Write(b)
}

func (w *memberWriter) Flush() {
	w.stamp()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Hijack lets WebSocket upgrades through.
func (w *memberWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("response writer cannot hijack")
	}
	return h.Hijack()
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *memberWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
