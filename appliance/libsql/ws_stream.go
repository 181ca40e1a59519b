package libsql

import (
	"context"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// wsStream is a WebSocket stream: a worker goroutine that runs the
// stream's requests in the order they arrived.
type wsStream struct {
	id   int32
	conn *wsConn
	jobs chan func()
	// done is closed when the worker has exited.
	done chan struct{}

	// cursorID is the open cursor, if any (reader-owned).
	cursorID *int32

	// Worker-owned state. exit ends the worker after the current job.
	exit    bool
	st      *stream
	openErr error
	cursor  *wsCursor
}

// wsQueueLen is how many requests may wait for one stream.
const wsQueueLen = 16

func (c *wsConn) startStream(id int32) *wsStream {
	s := &wsStream{id: id, conn: c, jobs: make(chan func(), wsQueueLen), done: make(chan struct{})}
	c.wg.Add(1)
	go s.work()
	return s
}

// work runs jobs until a job sets exit (close_stream) or the connection
// ends, then closes the stream.
func (s *wsStream) work() {
	defer s.conn.wg.Done()
	defer close(s.done)
	defer s.cleanup()
	for !s.exit {
		select {
		case job := <-s.jobs:
			job()
		case <-s.conn.ctx.Done():
			return
		}
	}
}

// cleanup stops the cursor and closes the stream (worker only).
func (s *wsStream) cleanup() {
	s.stopCursor()
	if s.st != nil {
		s.st.close()
		s.st = nil
	}
}

// enqueue schedules a job; it blocks while the stream's queue is full.
func (s *wsStream) enqueue(job func()) {
	select {
	case s.jobs <- job:
	case <-s.conn.ctx.Done():
	}
}

// live returns the open stream, or the reason there is none.
func (s *wsStream) live() (*stream, error) {
	if s.st == nil {
		if s.openErr != nil {
			return nil, hrana.Errorf(hrana.CodeStreamNotOpen, "Stream %d has failed to open: %s", s.id, asHranaError(s.openErr).Message)
		}
		return nil, hrana.Errorf(hrana.CodeStreamNotOpen, "Stream %d has failed to open", s.id)
	}
	if s.cursor != nil {
		return nil, hrana.Errorf(hrana.CodeProtocol, "Stream %d has an open cursor; close it first", s.id)
	}
	return s.st, nil
}

// run executes f on the open stream under its lock.
func (s *wsStream) run(f func(st *stream) (*hrana.WSResponse, error)) (*hrana.WSResponse, error) {
	st, err := s.live()
	if err != nil {
		return nil, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.conn == nil {
		return nil, errStreamClosed
	}
	return f(st)
}

// env returns the execution environment for a request on this stream.
func (c *wsConn) env(ctx context.Context, who *principal) *execEnv {
	return &execEnv{
		ctx:     ctx,
		who:     who,
		version: c.version,
		timeout: c.srv.cfg.StatementTimeout,
		budget:  newBudget(c.srv.cfg.MaxResponseSize),
	}
}

// wsCursor is an open cursor: a goroutine runs the batch on the stream and
// feeds entries through a bounded channel that fetch_cursor drains.
type wsCursor struct {
	entries chan hrana.CursorEntry
	cancel  context.CancelFunc
	done    chan struct{}
}

// wsCursorBuffer bounds the entries computed ahead of fetch_cursor.
const wsCursorBuffer = 256

// openCursor starts the batch (worker only). The producer holds the
// stream's lock until the batch ends or the cursor is closed.
func (s *wsStream) openCursor(env *execEnv, b *hrana.Batch) error {
	st, err := s.live()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(s.conn.ctx)
	env.ctx = ctx
	env.budget = nil
	cur := &wsCursor{entries: make(chan hrana.CursorEntry, wsCursorBuffer), cancel: cancel, done: make(chan struct{})}
	s.cursor = cur
	s.conn.wg.Add(1)
	go func() {
		defer s.conn.wg.Done()
		defer close(cur.done)
		defer close(cur.entries)
		st.mu.Lock()
		defer st.mu.Unlock()
		if st.conn == nil {
			cur.entries <- hrana.CursorEntry{Type: hrana.EntryError, Error: errStreamClosed}
			return
		}
		st.cursorBatch(env, b, func(e hrana.CursorEntry) error {
			select {
			case cur.entries <- e:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	return nil
}

// fetch returns up to maxCount entries, waiting for them, and whether the
// cursor is exhausted (worker only).
func (s *wsStream) fetch(maxCount uint32, maxBytes int64) ([]hrana.CursorEntry, bool, error) {
	if s.cursor == nil {
		return nil, false, hrana.Errorf(hrana.CodeCursorNotOpen, "Cursor of stream %d has failed to open", s.id)
	}
	var out []hrana.CursorEntry
	size := int64(0)
	for uint32(len(out)) < maxCount && size < maxBytes {
		select {
		case e, ok := <-s.cursor.entries:
			if !ok {
				return out, true, nil
			}
			out = append(out, e)
			for _, v := range e.Row {
				size += 24 + int64(len(v.Text)) + int64(len(v.Blob))
			}
		case <-s.conn.ctx.Done():
			return nil, false, s.conn.ctx.Err()
		}
	}
	return out, false, nil
}

// stopCursor cancels the cursor and waits for its goroutine (worker only).
func (s *wsStream) stopCursor() {
	if s.cursor == nil {
		return
	}
	s.cursor.cancel() // the running statement is interrupted through its context
	<-s.cursor.done
	s.cursor = nil
}
