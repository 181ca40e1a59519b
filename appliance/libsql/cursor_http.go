package libsql

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// handleCursor serves POST /v3/cursor: the response is a line of JSON with
// the baton, then one line per cursor entry, streamed as the batch runs.
func (s *Server) handleCursor(w http.ResponseWriter, r *http.Request) {
	ns, who, err := s.resolve(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodySize))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	req, err := hrana.DecodeCursorRequest(body)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	e, err := s.acquireHTTPStream(r.Context(), ns, req.Baton)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	st := e.st
	st.mu.Lock()
	if st.conn == nil {
		st.mu.Unlock()
		s.streams.release(e, true)
		s.writeError(w, r, errStreamClosed)
		return
	}
	baton := s.streams.baton(e)

	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(http.StatusOK)
	out := &lineWriter{w: bufio.NewWriter(w), flusher: http.NewResponseController(w)}
	err = out.write(hrana.CursorResponse{Baton: &baton})
	if err == nil {
		env := &execEnv{ctx: r.Context(), who: who, version: hrana.V3, sqls: st.sqls, timeout: s.cfg.StatementTimeout}
		err = st.cursorBatch(env, req.Batch, func(e hrana.CursorEntry) error { return out.write(e) })
	}
	if err == nil {
		err = out.flush()
	}
	if err != nil {
		// The client is gone; it cannot know the state of the stream.
		st.closeLocked()
	}
	closed := st.conn == nil
	st.mu.Unlock()
	s.streams.release(e, closed)
}

// lineWriter writes JSON lines, flushing at most every cursorFlushEvery so
// that rows stream without a syscall per entry.
type lineWriter struct {
	w         *bufio.Writer
	flusher   *http.ResponseController
	lastFlush time.Time
}

const cursorFlushEvery = 20 * time.Millisecond

func (l *lineWriter) write(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode cursor entry: %w", err)
	}
	data = append(data, '\n')
	if _, err := l.w.Write(data); err != nil {
		return err
	}
	if time.Since(l.lastFlush) >= cursorFlushEvery {
		return l.flush()
	}
	return nil
}

func (l *lineWriter) flush() error {
	l.lastFlush = time.Now()
	if err := l.w.Flush(); err != nil {
		return err
	}
	return l.flusher.Flush()
}
