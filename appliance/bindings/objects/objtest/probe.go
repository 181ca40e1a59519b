package objtest

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/dwk/fleet/appliance/worker"
)

// probeObject is the suite's object class: it runs whatever the test asks
// (through the probe) and reports the events it gets.
type probeObject struct {
	State *worker.State
	probe *probe

	// inside counts events running in this instance; the runtime must keep
	// it at most 1.
	inside atomic.Int32
	// overlap records that two events ran at once.
	overlap atomic.Bool
	// ready is set by constructor-time BlockConcurrencyWhile callbacks.
	ready bool
}

var (
	_ worker.Alarmer                 = (*probeObject)(nil)
	_ worker.WebSocketMessageHandler = (*probeObject)(nil)
	_ worker.WebSocketCloseHandler   = (*probeObject)(nil)
)

func newProbeObject(state *worker.State, env *worker.Env) worker.Object {
	key, _ := env.Var(probeVar)
	p := lookupProbe(key)
	o := &probeObject{State: state, probe: p}
	if p == nil {
		return o
	}
	p.constructed.Add(1)
	if p.onConstruct != nil {
		p.onConstruct(o)
	}
	return o
}

// enter and leave bracket every event to detect concurrent delivery.
func (o *probeObject) enter() {
	if o.inside.Add(1) > 1 {
		o.overlap.Store(true)
	}
}

func (o *probeObject) leave() { o.inside.Add(-1) }

// Fetch serves /call/<n> (run the test's closure n) and /ws?tag=… (accept a
// WebSocket with those tags).
func (o *probeObject) Fetch(w http.ResponseWriter, r *http.Request) {
	o.enter()
	defer o.leave()
	if o.probe == nil {
		http.Error(w, "no probe", http.StatusInternalServerError)
		return
	}
	switch {
	case strings.HasPrefix(r.URL.Path, "/call/"):
		n, _ := strconv.ParseInt(strings.TrimPrefix(r.URL.Path, "/call/"), 10, 64)
		fn := o.probe.takeCall(n)
		if fn == nil {
			http.Error(w, "unknown call", http.StatusNotFound)
			return
		}
		if err := fn(r.Context(), o); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusOK)
	case r.URL.Path == "/ws":
		ws, err := o.State.AcceptWebSocket(w, r, r.URL.Query()["tag"]...)
		if err != nil {
			// The upgrader has answered the client already.
			return
		}
		if user := r.URL.Query().Get("attach"); user != "" {
			ws.SerializeAttachment(map[string]string{"user": user})
		}
	default:
		http.NotFound(w, r)
	}
}

// Alarm runs the test's alarm handler.
func (o *probeObject) Alarm(ctx context.Context, info worker.AlarmInfo) error {
	o.enter()
	defer o.leave()
	o.probe.mu.Lock()
	fn := o.probe.alarm
	o.probe.mu.Unlock()
	if fn == nil {
		return nil
	}
	return fn(ctx, o, info)
}

// WebSocketMessage runs the test's message handler.
func (o *probeObject) WebSocketMessage(ctx context.Context, ws *worker.WebSocket, mt int, data []byte) {
	o.enter()
	defer o.leave()
	o.probe.mu.Lock()
	fn := o.probe.message
	o.probe.mu.Unlock()
	if fn != nil {
		fn(ctx, o, ws, mt, data)
	}
}

// WebSocketClose reports the close to the test.
func (o *probeObject) WebSocketClose(ctx context.Context, ws *worker.WebSocket, code int, reason string) {
	o.enter()
	defer o.leave()
	o.probe.closed <- closeEvent{tags: ws.Tags(), code: code, reason: reason}
}
