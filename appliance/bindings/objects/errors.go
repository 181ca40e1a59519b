package objects

import (
	"errors"
	"fmt"

	"github.com/dwk/fleet/appliance/worker"
)

// Errors of the runtime. ErrDraining, ErrClosed, ErrNotOpen and ErrFenced
// are outages (worker.Unavailable): the event may succeed if retried.
var (
	// ErrDraining is returned for events that would start an instance or an
	// alarm while the runtime drains; HTTP callers get 503.
	ErrDraining = worker.Outage("objects: runtime is draining")
	// ErrClosed is returned after Close.
	ErrClosed = worker.Outage("objects: runtime is closed")
	// ErrNotOpen is returned for events before Open.
	ErrNotOpen = worker.Outage("objects: runtime is not open")
	// ErrUnknownClass is returned by Namespace for a class no package
	// registered with worker.RegisterObject.
	ErrUnknownClass = errors.New("objects: object class not registered")
	// ErrUpgradeViaFetch is returned by Stub.Fetch for a WebSocket upgrade
	// request: upgrades need the live connection, so use Stub.ServeHTTP.
	ErrUpgradeViaFetch = errors.New("objects: WebSocket upgrades cannot go through Stub.Fetch; use Stub.ServeHTTP")
	// ErrNotInFetch is returned by AcceptWebSocket outside the object's
	// Fetch of a live request.
	ErrNotInFetch = errors.New("objects: AcceptWebSocket must be called from the object's Fetch with its request")
	// ErrCallCycle is returned when an event would wait for the turn of an
	// object that is already waiting for this event while holding its turn
	// (A calls B calls A, with A of a worker.Strict class or inside
	// BlockConcurrencyWhile), which would deadlock.
	ErrCallCycle = errors.New("objects: call cycle between objects")
	// ErrCallDepth is returned for a call that would make a chain of
	// nested object calls on one replica deeper than MaxCallDepth (an
	// object that keeps calling itself, say).
	ErrCallDepth = fmt.Errorf("objects: more than %d nested object calls", MaxCallDepth)
	// ErrFenced is wrapped by storage backends when a write is refused
	// because a newer lease holder exists.
	ErrFenced = worker.Outage("objects: write fenced by a newer lease epoch")
	// ErrObjectStopped is returned by BlockConcurrencyWhile called from
	// outside the object's events after the instance stopped.
	ErrObjectStopped = errors.New("objects: object instance stopped")
)

// MaxCallDepth is the deepest chain of nested object calls one event may
// start on a replica, as Cloudflare limits subrequest depth.
const MaxCallDepth = 16

// errGone tells an event that its instance stopped while it waited; the
// event retries on a fresh instance.
var errGone = errors.New("objects: instance gone")
