package worker

import (
	"context"
	"fmt"
)

// Input and output gates: how the events of one object share it.
// Cloudflare's definitions, in Go form:
//
//   - Input gate. An event runs alone while it computes and while it
//     calls its own storage, so a read followed by a write in one event is
//     never interleaved with another event. While it awaits a call that
//     leaves the object — a Stub's Fetch, ServeHTTP or Call to an object
//     (itself included), a service binding, or any call wrapped in Await —
//     other events of the object may run, unless the event is inside
//     State.BlockConcurrencyWhile. A call back into a waiting object
//     (A→B→A) is then an ordinary event of A.
//   - Output gate. What an event wrote is durable before anything it
//     produces leaves: the first byte of its response, a WebSocket message
//     it sends, a call it makes, and its end. If the write cannot be made
//     durable, the response becomes an error (503), the call is not made,
//     and the object is reset (its next event starts it afresh from
//     durable storage).
//
// A class registered with WithConcurrency(Strict) keeps the input gate
// closed for the whole event: events never interleave, and a call back
// into a waiting object fails with a call-cycle error (HTTP 508). The
// output gate is the same in both modes.

// Concurrency is how the events of a class's objects share the object.
type Concurrency int

const (
	// Gated is Cloudflare's model and the default: other events of the
	// object may run while an event awaits a call that leaves the object
	// (see the package's input gate).
	Gated Concurrency = iota
	// Strict keeps one event at a time for the whole event, calls
	// included. A call back into a waiting object fails.
	Strict
)

// String names the mode as docs and logs spell it.
func (c Concurrency) String() string {
	switch c {
	case Gated:
		return "gated"
	case Strict:
		return "strict"
	}
	return fmt.Sprintf("Concurrency(%d)", int(c))
}

// ObjectOption configures an object class at RegisterObject.
type ObjectOption func(*objectOptions)

type objectOptions struct {
	concurrency Concurrency
}

// WithConcurrency sets how the events of the class's objects share the
// object. Default: Gated.
func WithConcurrency(c Concurrency) ObjectOption {
	return func(o *objectOptions) { o.concurrency = c }
}

// Gate is the input and output gate of one object event. The object
// runtime puts it into the context of every event it runs; Await uses it.
type Gate interface {
	// Open is called before an awaited call leaves the event. It makes the
	// event's writes durable (an error means they are not, and the call
	// must not be made) and, for a Gated class outside
	// BlockConcurrencyWhile, lets other events of the object run. resume
	// must be called once the call returned: it waits until the event may
	// run again, and fails when the object was reset meanwhile (its
	// storage failed, its lease was lost, it was released past a
	// deadline), in which case the event should answer with the error.
	Open(ctx context.Context) (resume func() error, err error)
	// Confirm makes the event's writes durable, keeping the input gate
	// closed: for calls made by work that runs beside the event
	// (WaitUntil), which must not let other events in while the event's
	// own code runs.
	Confirm(ctx context.Context) error
}

// besideGate is the gate of work started with WaitUntil from an object's
// event: its calls wait for the event's writes to be durable but never
// open the event's input gate.
type besideGate struct{ g Gate }

func (b besideGate) Open(ctx context.Context) (func() error, error) {
	if err := b.g.Confirm(ctx); err != nil {
		return nil, err
	}
	return func() error { return nil }, nil
}

func (b besideGate) Confirm(ctx context.Context) error { return b.g.Confirm(ctx) }

type gateKey struct{}

// WithGate returns ctx carrying g. The object runtime calls it for each
// event.
func WithGate(ctx context.Context, g Gate) context.Context {
	return context.WithValue(ctx, gateKey{}, g)
}

// ErrObjectReset is wrapped by Await (and so by stub and service calls
// made from an object) when the object was reset while the call was
// awaited: the event's storage is gone, so it should fail; a retry runs
// on the object started afresh. It is an outage (Unavailable).
var ErrObjectReset = Outage("the object was reset while the event awaited a call")

// Await runs call, which waits for something outside the object (an
// outgoing HTTP request, a D1, KV, R2 or queue call), with the input gate
// of the object event ctx belongs to open: the event's writes are made
// durable first, and other events of the object may run until call
// returns. Stubs and service bindings do this themselves; storage calls
// never open the gate. Outside an object event, Await just runs call.
//
// Code after Await must not assume that the object's in-memory state is
// what it was before: another event may have changed it meanwhile.
func Await(ctx context.Context, call func() error) error {
	g, ok := ctx.Value(gateKey{}).(Gate)
	if !ok {
		return call()
	}
	resume, err := g.Open(ctx)
	if err != nil {
		return err
	}
	cerr := call()
	if rerr := resume(); rerr != nil {
		return rerr
	}
	return cerr
}
