package objects

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/appliance/fleet/protocol"
	"github.com/dwk/fleet/appliance/worker"
)

// stub addresses one object through the runtime.
type stub struct {
	rt  *Runtime
	id  worker.ObjectID
	err error // set for ids that fail validation
}

var _ worker.Stub = (*stub)(nil)

// ID implements worker.Stub.
func (s *stub) ID() worker.ObjectID { return s.id }

// Fetch implements worker.Stub. The object's response is buffered in full
// before Fetch returns, so the object's turn never waits for the caller to
// read the body; use ServeHTTP to stream. Upgrade requests fail with
// ErrUpgradeViaFetch. Called from an object's event, the call opens that
// event's gates (worker.Await).
func (s *stub) Fetch(ctx context.Context, req *http.Request) (*http.Response, error) {
	if s.err != nil {
		return nil, s.err
	}
	if websocket.IsWebSocketUpgrade(req) {
		return nil, ErrUpgradeViaFetch
	}
	var resp *http.Response
	err := worker.Await(ctx, func() error {
		var err error
		resp, err = s.fetch(ctx, req)
		return err
	})
	if err != nil && resp != nil {
		// The caller's object was reset while it waited.
		resp.Body.Close()
		resp = nil
	}
	return resp, err
}

// fetch is Fetch once the caller's gates are open. A retry answer means
// the request ran nowhere, because its object was moving (its holder
// drains, stopped or could not be reached). It is replayed, the object
// looked up again each time, until the object answers or MoveTimeout has
// passed; a request whose body cannot be read again (no GetBody) is not
// replayed. The caller then gets the retry answer, a 503.
func (s *stub) fetch(ctx context.Context, req *http.Request) (*http.Response, error) {
	req = req.WithContext(ctx)
	if req.Body == nil {
		req.Body = http.NoBody
	}
	var start, deadline time.Time
	backoff := 50 * time.Millisecond
	for replays := 0; ; replays++ {
		resp, err := s.fetchOnce(req)
		if err != nil || !protocol.IsRetry(resp.StatusCode, resp.Header) {
			if replays > 0 && err == nil {
				s.rt.log.Info("object call answered after its object moved", "object", s.id, "replays", replays,
					"waited", s.rt.cfg.Clock.Now().Sub(start).Round(time.Millisecond))
			}
			return resp, err
		}
		now := s.rt.cfg.Clock.Now()
		if deadline.IsZero() {
			start, deadline = now, now.Add(s.rt.cfg.MoveTimeout)
		}
		wait := min(backoff, deadline.Sub(now))
		if wait <= 0 || (req.Body != http.NoBody && req.GetBody == nil) {
			if replays > 0 {
				s.rt.log.Warn("object call gave up: its object is still moving (retry answer)", "object", s.id, "replays", replays,
					"waited", now.Sub(start).Round(time.Millisecond))
			}
			return resp, nil
		}
		select {
		case <-ctx.Done():
			return resp, nil
		case <-s.rt.cfg.Clock.After(wait):
		}
		rctx := context.WithValue(ctx, replayKey{}, true)
		if req.Body == http.NoBody {
			req = req.WithContext(rctx)
		} else {
			body, err := req.GetBody()
			if err != nil {
				return resp, nil
			}
			req = req.Clone(rctx)
			req.Body = body
		}
		resp.Body.Close()
		backoff = min(2*backoff, time.Second)
	}
}

// replayKey marks the context of a replayed stub call; see Replaying.
type replayKey struct{}

// Replaying reports whether ctx is that of a stub call replayed because
// its object was moving. A Forwarder logs such a call's failures at debug
// level: the first attempt's failure and the call's outcome are logged.
func Replaying(ctx context.Context) bool { return ctx.Value(replayKey{}) != nil }

// fetchOnce runs req in the object's event here, or forwards it to the
// object's holder, and returns the buffered answer.
func (s *stub) fetchOnce(req *http.Request) (*http.Response, error) {
	rec := newRecorder()
	err := s.rt.event(req.Context(), s.id, func(ctx context.Context, in *instance) error {
		return in.fetch(rec, req.WithContext(ctx), nil)
	})
	var away *ElsewhereError
	switch {
	case errors.As(err, &away) && s.rt.cfg.Forwarder != nil:
		s.rt.cfg.Forwarder.Forward(rec, req, s.id, away.Holder)
	case err != nil:
		return nil, fmt.Errorf("fetch object %s: %w", s.id, err)
	}
	return rec.response(req), nil
}

// ServeHTTP implements worker.Stub: the object writes straight to w and may
// accept a WebSocket upgrade. Called from an object's event, the call opens
// that event's gates (worker.Await); when they fail before the call, it
// answers 503 without making it.
func (s *stub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.err != nil {
		http.Error(w, s.err.Error(), http.StatusBadRequest)
		return
	}
	called := false
	err := worker.Await(r.Context(), func() error {
		called = true
		s.serve(w, r)
		return nil
	})
	switch {
	case err != nil && !called:
		w.Header().Set("Retry-After", worker.RetryAfter)
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
	case err != nil:
		s.rt.log.Warn("object call returned to a reset object", "object", s.id, "err", err)
	}
}

// serve is ServeHTTP once the caller's gates are open.
func (s *stub) serve(w http.ResponseWriter, r *http.Request) {
	var started, ran bool
	err := s.rt.event(r.Context(), s.id, func(ctx context.Context, in *instance) error {
		ran = true
		return in.fetch(w, r.WithContext(ctx), &started)
	})
	var away *ElsewhereError
	switch {
	case err == nil:
	case errors.As(err, &away) && s.rt.cfg.Forwarder != nil:
		s.rt.cfg.Forwarder.Forward(w, r, s.id, away.Holder)
	case errors.Is(err, errPanicked):
		// The response is already (partly) written.
	case errors.Is(err, ErrDraining), errors.Is(err, ErrClosed), errors.Is(err, ErrNotOpen):
		// Nothing ran: the front door may replay the request on another
		// replica, which takes the object over once this one lets go.
		protocol.WriteRetry(w)
	case !ran && worker.Unavailable(err):
		// The object's Fetch never ran: this replica could not take the
		// object (its lease moved on, or the coordination store is out of
		// its reach). The front door may replay the request on another
		// replica, which may reach the store and the object.
		protocol.WriteRetry(w)
	case started:
		// The response began (or its gate already answered 503).
		s.rt.log.Warn("object request failed after its response started", "object", s.id, "err", err)
	default:
		s.rt.log.Warn("object request failed", "object", s.id, "err", err)
		code := errorStatus(err)
		if code == http.StatusServiceUnavailable {
			w.Header().Set("Retry-After", worker.RetryAfter)
		}
		http.Error(w, err.Error(), code)
	}
}

// errPanicked reports that the object panicked in Fetch; fetch has already
// answered 500 if it could.
var errPanicked = errors.New("object panicked")

// fetch runs the object's Fetch. Runs in the turn. started, when not
// nil, is set when anything was written to w.
func (in *instance) fetch(w http.ResponseWriter, r *http.Request, started *bool) error {
	ctx := r.Context()
	tw := &trackingWriter{ResponseWriter: w, gate: func() error { return in.confirm(ctx) }}
	if started != nil {
		defer func() { *started = tw.wrote }()
	}
	err := in.call(func() {
		if method, ok := worker.RPCMethod(ctx); ok {
			worker.ServeRPC(tw, r, in.obj, method)
			return
		}
		in.obj.Fetch(tw, r)
	})
	if err != nil {
		in.rt.log.Error("object fetch panicked", "object", in.id, "err", err)
		if !tw.wrote {
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
		return errPanicked
	}
	return nil
}

// call runs object code, turning a panic into an error.
func (in *instance) call(fn func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	fn()
	return nil
}

// errorStatus maps runtime errors to HTTP statuses.
func errorStatus(err error) int {
	switch {
	case worker.Unavailable(err):
		// Draining, closed, fenced, or a store that did not answer.
		return http.StatusServiceUnavailable
	case errors.Is(err, worker.ErrInvalidObjectID):
		return http.StatusBadRequest
	case errors.Is(err, ErrCallCycle), errors.Is(err, ErrCallDepth):
		return http.StatusLoopDetected
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return http.StatusServiceUnavailable
	}
	var away *ElsewhereError
	if errors.As(err, &away) {
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}
