package dwkdirect

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptrace"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"
)

// errLapsed cancels a forward whose member stopped holding the object.
var errLapsed = errors.New("dwk_direct: the member stopped holding the object while the request waited")

// lapseWatch is the watch of one forward: it cancels the round trip when
// the member's hold on the object lapses before the answer's headers
// came, and notes whether the request may have reached the member.
type lapseWatch struct {
	cancel context.CancelCauseFunc
	stop   context.CancelFunc // ends the watch
	mu     sync.Mutex
	done   bool // the round trip returned: a lapse no longer cancels it
	lapsed bool
	conn   atomic.Bool // a connection was handed the request
}

// watched returns ctx for a forward's round trip, cancelled with
// errLapsed when watch reports a lapse, and the watch to end with end.
// Without watch the context only records whether a connection was used.
func watched(ctx context.Context, watch watchFunc) (context.Context, *lapseWatch) {
	l := &lapseWatch{}
	ctx, l.cancel = context.WithCancelCause(ctx)
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(httptrace.GotConnInfo) { l.conn.Store(true) },
	})
	var wctx context.Context
	wctx, l.stop = context.WithCancel(ctx)
	if watch != nil {
		watch(wctx, l.fire)
	}
	return ctx, l
}

// fire cancels the round trip unless it already returned.
func (l *lapseWatch) fire() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.done {
		l.lapsed = true
		l.cancel(errLapsed)
	}
}

// answered ends the watch: the round trip returned.
func (l *lapseWatch) answered() {
	l.mu.Lock()
	l.done = true
	l.mu.Unlock()
	l.stop()
}

// fired reports whether a lapse cancelled the round trip.
func (l *lapseWatch) fired() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lapsed
}

// sent reports whether the request may have reached the member: a
// connection to it was handed the request. Without one, nothing was sent.
func (l *lapseWatch) sent() bool { return l.conn.Load() }

// end releases the watch's context once the answer is relayed.
func (l *lapseWatch) end() { l.cancel(nil) }

// lapsed answers a forward whose member stopped holding the object before
// it answered: a 504 when the request may have run there (it may still
// run if the member wakes up, and its writes are then fenced), else a
// replay with retry, which finds the object's new holder.
func (d *Direct) lapsed(w http.ResponseWriter, r *http.Request, dial string, sent bool, kept *replayBody, hasBody bool, retry func(http.ResponseWriter, *http.Request, string) error) error {
	if r.Context().Err() != nil {
		return nil
	}
	d.log.Debug("member stopped holding the object while the request waited", zap.String("upstream", dial), zap.Bool("sent", sent))
	if sent || hasBody && (kept == nil || kept.overLimit()) {
		http.Error(w, "Gateway Timeout: the replica stopped holding the object before it answered; the request may have run", http.StatusGatewayTimeout)
		return nil
	}
	if kept != nil {
		r.Body = kept.replay()
	}
	return retry(w, r, dial)
}
