package worker

import (
	"context"
	"errors"
)

// Errors of WaitUntil.
var (
	// ErrNoWaitUntil is returned by WaitUntil for a context that did not
	// come from a Fetch, Queue or Scheduled handler (or a context derived
	// from one).
	ErrNoWaitUntil = errors.New("waitUntil: the context is not a fetch, queue or scheduled handler's (pass the handler's ctx or r.Context())")
	// ErrWaitUntilClosed is returned by WaitUntil once the replica has
	// finished draining: the work was not started.
	ErrWaitUntilClosed = errors.New("waitUntil: the replica has drained and takes no more background work")
)

// Background is the host's keeper of work started with WaitUntil. The host
// puts one into the context of every Fetch, Queue and Scheduled call.
type Background interface {
	// Go runs fn in a goroutine of its own with a context that carries
	// parent's values but not its cancellation: it outlives the handler
	// and is cancelled only when the host gives up on background work
	// (the end of a drain's budget). It returns ErrWaitUntilClosed,
	// without running fn, once the host no longer takes work.
	Go(parent context.Context, fn func(ctx context.Context)) error
}

type backgroundKey struct{}

// WithBackground returns ctx carrying b for WaitUntil. The host calls it
// for each handler call.
func WithBackground(ctx context.Context, b Background) context.Context {
	return context.WithValue(ctx, backgroundKey{}, b)
}

// WaitUntil is Cloudflare's ctx.waitUntil: it runs fn after (or alongside)
// the handler, and the replica keeps running until fn returns. ctx is the
// handler's context (r.Context() in Fetch); fn's own context keeps ctx's
// values but is not cancelled when the response is sent or the handler
// returns.
//
// A draining replica waits for such work within its drain budget
// (drain.timeout, see docs/operations.md); at the deadline fn's context is
// cancelled and the task is logged as cut short, so fn must watch its
// context. A panic in fn is recovered and logged.
//
// WaitUntil returns ErrNoWaitUntil for a context that is not a handler's,
// and ErrWaitUntilClosed after the replica drained; fn does not run then.
// An object's handlers have a worker handler's context only when the event
// came from that handler on the same replica (a local stub); alarms and
// forwarded events do not, so objects should not rely on WaitUntil.
func WaitUntil(ctx context.Context, fn func(ctx context.Context)) error {
	b, ok := ctx.Value(backgroundKey{}).(Background)
	if !ok {
		return ErrNoWaitUntil
	}
	if g, ok := ctx.Value(gateKey{}).(Gate); ok {
		// Started by an object's event: fn's calls keep its output gate,
		// but never open its input gate while the event's code runs.
		ctx = WithGate(ctx, besideGate{g})
	}
	return b.Go(ctx, fn)
}
