package objcentral

import (
	"context"
	"errors"
	"net/http/httptrace"
	"sync"
	"sync/atomic"

	"github.com/dwk/fleet/appliance/worker"
)

// WatchFunc watches the holder at addr a request for object id was
// forwarded to, and calls lapsed, once and from another goroutine, when
// it stops holding the object (see appliance/fleet/lapse), until ctx
// ends.
type WatchFunc func(ctx context.Context, id worker.ObjectID, addr string, lapsed func())

// errLapsed cancels a forward whose holder stopped holding the object.
var errLapsed = errors.New("the holder stopped holding the object while the request waited")

// forwardWatch is the watch of one forward: a lapse before the holder's
// response headers cancels the round trip; whether a connection took the
// request tells whether it may have run.
type forwardWatch struct {
	cancel context.CancelCauseFunc
	stop   context.CancelFunc
	mu     sync.Mutex
	done   bool
	conn   atomic.Bool
}

type watchKey struct{}

// watchForward returns ctx for the forward, with the watch started when
// watch is set; end releases it.
func watchForward(ctx context.Context, watch WatchFunc, id worker.ObjectID, addr string) (context.Context, func()) {
	fw := &forwardWatch{}
	ctx, fw.cancel = context.WithCancelCause(ctx)
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(httptrace.GotConnInfo) { fw.conn.Store(true) },
	})
	ctx = context.WithValue(ctx, watchKey{}, fw)
	var wctx context.Context
	wctx, fw.stop = context.WithCancel(ctx)
	if watch != nil {
		watch(wctx, id, addr, fw.fire)
	}
	return ctx, func() { fw.stop(); fw.cancel(nil) }
}

func (fw *forwardWatch) fire() {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if !fw.done {
		fw.cancel(errLapsed)
	}
}

// answered ends the watch of the forward ctx belongs to: the holder's
// response headers came.
func answeredWatch(ctx context.Context) {
	if fw, ok := ctx.Value(watchKey{}).(*forwardWatch); ok {
		fw.mu.Lock()
		fw.done = true
		fw.mu.Unlock()
		fw.stop()
	}
}

// lapsedForward reports whether ctx's forward was cancelled by a lapse,
// and whether a connection had taken the request by then.
func lapsedForward(ctx context.Context) (lapsed, sent bool) {
	fw, ok := ctx.Value(watchKey{}).(*forwardWatch)
	if !ok || !errors.Is(context.Cause(ctx), errLapsed) {
		return false, false
	}
	return true, fw.conn.Load()
}
