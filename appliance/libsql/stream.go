package libsql

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/sqlite"
)

// stream is a Hrana stream: one SQLite connection of one namespace, used
// by one request at a time. HTTP streams live in the baton registry,
// WebSocket streams in their connection's session.
type stream struct {
	ns    *namespace
	slots *streamSlots

	// mu is held while a request runs on the stream and while it closes.
	mu   sync.Mutex
	conn *sqlite.Conn // nil once closed
	// live mirrors conn for interrupt, which must not wait for mu.
	live atomic.Pointer[sqlite.Conn]
	// killed is set by interrupt: the stream is being closed from outside
	// and runs no further statement.
	killed atomic.Bool
	// sqls are the texts stored with store_sql on an HTTP stream.
	sqls map[int32]string
	// dirty marks a connection whose session state a statement may have
	// changed (PRAGMA); it is closed instead of being reused.
	dirty bool
	// resetFK marks a connection that ran PRAGMA foreign_keys; release
	// turns foreign keys back off (SQLite's default) before reuse.
	resetFK bool
	// wrote marks a transaction that ran a writing statement; the backup
	// hears of it when the connection is back in autocommit mode.
	wrote bool
}

// errStreamClosed reports a request on a stream the server has closed.
var errStreamClosed = &hrana.Error{
	Code:    hrana.CodeStreamExpired,
	Message: "The stream was closed by the server (idle timeout, namespace deleted or server shutting down)",
}

// streamSlotWait is how long opening a stream waits for one to close when
// all are open, before it fails with TOO_MANY_STREAMS: a burst is queued
// briefly instead of failing at once.
const streamSlotWait = time.Second

// streamSlots bounds the number of open streams.
type streamSlots struct {
	max int64
	sem chan struct{}
}

func newStreamSlots(max int) *streamSlots {
	return &streamSlots{max: int64(max), sem: make(chan struct{}, max)}
}

// acquire takes a slot, waiting up to streamSlotWait (or until ctx ends)
// for one.
func (s *streamSlots) acquire(ctx context.Context) bool {
	select {
	case s.sem <- struct{}{}:
		return true
	default:
	}
	t := time.NewTimer(streamSlotWait)
	defer t.Stop()
	select {
	case s.sem <- struct{}{}:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

func (s *streamSlots) release() { <-s.sem }

// used is the number of slots taken.
func (s *streamSlots) used() int { return len(s.sem) }

// openStream opens a stream on ns, taking a slot and a connection.
func openStream(ctx context.Context, ns *namespace, slots *streamSlots) (*stream, error) {
	if !slots.acquire(ctx) {
		return nil, hrana.Errorf(hrana.CodeTooManyStreams, "Too many open streams: the server allows %d; close streams or raise --max-streams", slots.max)
	}
	conn, err := ns.pool.get()
	if err != nil {
		slots.release()
		if errors.Is(err, errPoolClosed) {
			return nil, hrana.Errorf(hrana.CodeNamespaceNotFound, "Namespace `%s` doesn't exist (it is being deleted)", ns.name)
		}
		return nil, fmt.Errorf("open stream on namespace %s: %w", ns.name, err)
	}
	st := &stream{ns: ns, slots: slots, conn: conn}
	st.live.Store(conn)
	if !ns.register(st) {
		ns.pool.put(conn, true)
		slots.release()
		return nil, hrana.Errorf(hrana.CodeNamespaceNotFound, "Namespace `%s` doesn't exist (it is being deleted)", ns.name)
	}
	return st, nil
}

// interrupt stops the statement running on the stream, if any. It may be
// called from any goroutine. It is only used when the whole namespace is
// closing: the connection may meanwhile have passed to another stream of
// the same namespace, which is closing too.
func (st *stream) interrupt() {
	st.killed.Store(true)
	if c := st.live.Load(); c != nil {
		c.Interrupt()
	}
}

// close rolls back any open transaction, returns the connection and frees
// the slot. It waits for a running request. Closing twice is a no-op.
func (st *stream) close() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.closeLocked()
}

// closeLocked is close for a caller holding mu.
func (st *stream) closeLocked() {
	if st.conn == nil {
		return
	}
	c := st.conn
	st.conn = nil
	st.live.Store(nil)
	reusable := !st.dirty
	if !c.Autocommit() {
		if err := c.Exec("ROLLBACK"); err != nil {
			reusable = false
		}
	}
	if reusable && st.resetFK {
		if err := c.Exec("PRAGMA foreign_keys = OFF"); err != nil {
			reusable = false
		}
	}
	if reusable {
		// Temporary tables and triggers would leak into the next stream.
		if n, err := c.QueryInt64s("SELECT count(*) FROM temp.sqlite_schema"); err != nil || len(n) != 1 || n[0] != 0 {
			reusable = false
		}
	}
	st.ns.pool.put(c, reusable)
	st.ns.unregister(st)
	st.slots.release()
}
