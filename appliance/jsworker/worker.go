package jsworker

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/webapi/fetch"
	"github.com/dwk/fleet/appliance/worker"
)

// Worker is a JavaScript worker as the host sees it: a worker.Fetcher,
// Scheduler, QueueConsumer and RPCWorker whose handlers are the bundle's.
type Worker struct {
	name string
	mu   sync.RWMutex // guards cur against a reload
	cur  *version
}

var (
	_ worker.Fetcher       = (*Worker)(nil)
	_ worker.Scheduler     = (*Worker)(nil)
	_ worker.QueueConsumer = (*Worker)(nil)
	_ worker.RPCWorker     = (*Worker)(nil)
)

// Load starts the worker's isolates and runs its bundle in each. It
// fails when the bundle throws while it starts or does not export a class
// that cfg.Classes names.
func Load(cfg Config) (*Worker, error) {
	cfg = cfg.withDefaults()
	if cfg.Script == nil {
		return nil, errors.New("jsworker: no script")
	}
	v, err := newVersion(cfg)
	if err != nil {
		return nil, fmt.Errorf("worker %q: %w", cfg.Name, err)
	}
	return &Worker{name: cfg.Name, cur: v}, nil
}

// Register makes the worker and its object classes available to the host
// under their names (worker.ProvideWorker, worker.ProvideObject): a
// built-in worker of the same name gives way.
func (w *Worker) Register() error {
	if err := worker.ProvideWorker(w.name, w); err != nil {
		return err
	}
	for js, class := range w.cur.cfg.Classes {
		if err := worker.ProvideObject(class, w.objectClass(js)); err != nil {
			return err
		}
	}
	return nil
}

// Handles reports whether the bundle's default export has the handler
// named ("fetch", "scheduled" or "queue").
func (w *Worker) Handles(handler string) bool {
	v := w.acquire()
	defer v.release()
	switch handler {
	case "fetch":
		return v.info.Fetch
	case "scheduled":
		return v.info.Scheduled
	case "queue":
		return v.info.Queue
	}
	return false
}

// Reload swaps in a new bundle: events that started on the old one finish
// there; new events and objects started afresh run the new one.
func (w *Worker) Reload(s *Script) error {
	w.mu.RLock()
	cfg := w.cur.cfg
	w.mu.RUnlock()
	cfg.Script = s
	v, err := newVersion(cfg)
	if err != nil {
		return err
	}
	w.mu.Lock()
	old := w.cur
	w.cur = v
	w.mu.Unlock()
	old.retire()
	return nil
}

// Close stops the worker's isolates once their events are done.
func (w *Worker) Close() {
	w.mu.Lock()
	v := w.cur
	w.mu.Unlock()
	v.retire()
}

func (w *Worker) acquire() *version {
	w.mu.RLock()
	v := w.cur
	v.acquire()
	w.mu.RUnlock()
	return v
}

// Fetch implements worker.Fetcher: the bundle's fetch handler answers r.
func (w *Worker) Fetch(rw http.ResponseWriter, r *http.Request, env *worker.Env) {
	v := w.acquire()
	defer v.release()
	if v.cfg.Assets.serveAsset(rw, r) {
		return
	}
	if !v.info.Fetch {
		if v.cfg.Assets != nil {
			v.cfg.Assets.Server.ServeHTTP(rw, r)
			return
		}
		http.Error(rw, "the worker has no fetch handler", http.StatusNotFound)
		return
	}
	if r.Body != nil && r.Body != http.NoBody {
		// A worker may answer while the request body still arrives (a
		// streamed echo or transform): Go's server must not close the
		// body at the first byte of the response.
		http.NewResponseController(rw).EnableFullDuplex()
	}
	st := v.pool.pick()
	ev := st.iso.NewEvent(fetch.WithLive(r.Context(), r))
	inv := newInvocation(ev, r.Context())
	defer inv.done()
	out, err := jsrt.Call(ev, jsrt.CallOptions{}, func(rt *goja.Runtime) (goja.Value, error) {
		req, err := fetch.NewRequest(st.iso, r)
		if err != nil {
			return nil, err
		}
		ctx, err := st.newContext(goja.Undefined(), rt.ToValue(inv))
		if err != nil {
			return nil, err
		}
		return st.runFetch(goja.Undefined(), req, st.env(env), ctx)
	}, func(rt *goja.Runtime, val goja.Value) (*fetch.Outgoing, error) {
		return fetch.ReadResponse(ev, val)
	})
	if err != nil {
		v.fail(rw, r, err)
		return
	}
	v.write(rw, r, ev, out)
}

// write sends a handler's response: passed through to an object or a
// service when the handler returned what their fetch gave for a live
// request, else written from the Response.
func (v *version) write(rw http.ResponseWriter, r *http.Request, ev *jsrt.Event, out *fetch.Outgoing) {
	if h, ok := out.Passthrough.(http.Handler); ok {
		out.Discard()
		h.ServeHTTP(rw, r)
		return
	}
	if out.WebSocket != nil {
		v.serveWebSocket(rw, r, ev, out)
		return
	}
	if err := out.WriteTo(rw); err != nil && r.Context().Err() == nil {
		v.cfg.Logger.Warn("the response body was cut short", "method", r.Method, "url", r.URL.String(), "err", err)
		panic(http.ErrAbortHandler)
	}
}

// fail answers a request whose handler threw (500, logged with its
// stack), ran out of CPU time, or never settled.
func (v *version) fail(rw http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		return // the client went away
	}
	log := v.cfg.Logger
	var je *jsrt.Error
	switch {
	case errors.As(err, &je):
		log.ErrorContext(r.Context(), "Uncaught "+firstLine(je.Error()), "method", r.Method, "url", r.URL.String(), "stack", je.Stack)
	default:
		log.ErrorContext(r.Context(), "the worker failed a request", "method", r.Method, "url", r.URL.String(), "err", err)
	}
	http.Error(rw, "Internal Server Error", http.StatusInternalServerError)
}

func firstLine(s string) string {
	for k := 0; k < len(s); k++ {
		if s[k] == '\n' {
			return s[:k]
		}
	}
	return s
}

// Scheduled implements worker.Scheduler: the bundle's scheduled handler
// runs the tick.
func (w *Worker) Scheduled(ctx context.Context, ev worker.ScheduledEvent, env *worker.Env) error {
	return w.runEvent(ctx, env, "scheduled", func(st *isoState, rt *goja.Runtime) (goja.Value, error) {
		return newController(st, rt, ev), nil
	})
}

// Queue implements worker.QueueConsumer: the bundle's queue handler gets
// the batch.
func (w *Worker) Queue(ctx context.Context, batch *worker.MessageBatch, env *worker.Env) error {
	return w.runEvent(ctx, env, "queue", func(st *isoState, rt *goja.Runtime) (goja.Value, error) {
		return newBatch(st, rt, batch)
	})
}

// runEvent calls the default export's handler kind with the argument arg
// makes, and waits until the promise it returns settles.
func (w *Worker) runEvent(ctx context.Context, env *worker.Env, kind string, arg func(*isoState, *goja.Runtime) (goja.Value, error)) error {
	v := w.acquire()
	defer v.release()
	st := v.pool.pick()
	ev := st.iso.NewEvent(ctx)
	inv := newInvocation(ev, ctx)
	defer inv.done()
	_, err := jsrt.Call(ev, jsrt.CallOptions{}, func(rt *goja.Runtime) (goja.Value, error) {
		a, err := arg(st, rt)
		if err != nil {
			return nil, err
		}
		c, err := st.newContext(goja.Undefined(), rt.ToValue(inv))
		if err != nil {
			return nil, err
		}
		return st.runEvent(goja.Undefined(), rt.ToValue(kind), a, st.env(env), c)
	}, func(*goja.Runtime, goja.Value) (struct{}, error) { return struct{}{}, nil })
	return err
}
