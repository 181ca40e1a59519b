package jsworker

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsbind"
	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/webapi/fetch"
	"github.com/dwk/fleet/appliance/worker"
)

// classInfo is what the prelude's objectInfo reports of a class.
type classInfo struct {
	Methods     []string `json:"methods"`
	Hibernation bool     `json:"hibernation"`
}

// jsObject is one Durable Object instance of a JavaScript class, as the
// host's object runtime holds it: every handler runs the instance's method
// in the isolate the object's id hashes to.
type jsObject struct {
	w     *Worker
	js    string
	state *worker.State
	env   *worker.Env
	v     *version
	st    *isoState
	info  classInfo

	mu sync.Mutex // guards st, stale and inits against an isolate restart
	// stale is set while the object must be constructed again: its
	// isolate restarted, and the construction in the fresh one has not
	// completed yet.
	stale bool
	// inits are the constructor's blockConcurrencyWhile callbacks while it
	// is constructed again, for isolate to run in the event's turn.
	inits []func(context.Context) error
	// rebuilding is set while the object is constructed again.
	rebuilding atomic.Bool

	// Loop only.
	inst    *goja.Object
	sockets map[*worker.WebSocket]*goja.Object

	constructing atomic.Bool
	// standard holds the sockets accepted with accept(), whose events go
	// to their listeners: while any is open the object stays awake.
	standard  sync.Map // *worker.WebSocket → struct{}
	nstandard atomic.Int32
	timers    atomic.Int32 // armed timers (Armed)
	disposed  atomic.Bool
}

var (
	_ worker.Object                  = (*jsObject)(nil)
	_ worker.Alarmer                 = (*jsObject)(nil)
	_ worker.RPCObject               = (*jsObject)(nil)
	_ worker.Hibernatable            = (*jsObject)(nil)
	_ worker.WebSocketMessageHandler = (*jsObject)(nil)
	_ worker.WebSocketCloseHandler   = (*jsObject)(nil)
	_ worker.WebSocketErrorHandler   = (*jsObject)(nil)
	_ worker.Disposer                = (*jsObject)(nil)
	_ jsrt.TimerOwner                = (*jsObject)(nil)
)

// objectClass is the worker.ObjectClass of the exported class js: it
// constructs the JavaScript class in the object's isolate.
func (w *Worker) objectClass(js string) worker.ObjectClass {
	return func(state *worker.State, env *worker.Env) worker.Object {
		v := w.acquire()
		o := &jsObject{w: w, js: js, state: state, env: env, v: v, info: v.classes[js]}
		o.st = v.objects.at(o.key())
		if err := o.construct(); err != nil {
			v.release()
			panic(err) // the object runtime reports a failed constructor
		}
		return o
	}
}

// key places the object in one of its worker's object isolates.
func (o *jsObject) key() uint64 {
	raw := o.state.ID.Bytes()
	return binary.BigEndian.Uint64(raw[:8])
}

// isolate is the object's isolate state. When its isolate restarted
// (past its memory limit) the object is constructed again in the fresh
// one, its memory lost as after an eviction; its storage is where it was.
// The constructor's blockConcurrencyWhile callbacks then run before the
// event, in its turn (ctx holds it), as the object runtime runs them
// after a first construction; if one fails, the event fails and the next
// one constructs the object again.
func (o *jsObject) isolate(ctx context.Context) (*isoState, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.stale && !o.st.iso.Closed() {
		return o.st, nil
	}
	if !o.stale {
		o.stale = true
		o.v.cfg.Logger.Warn("object constructed again after its isolate restarted", "object", o.state.ID)
	}
	o.st = o.v.objects.at(o.key())
	o.rebuilding.Store(true)
	err := o.construct()
	o.rebuilding.Store(false)
	inits := o.inits
	o.inits = nil
	if err != nil {
		return o.st, err
	}
	for _, run := range inits {
		if err := o.state.BlockConcurrencyWhile(ctx, run); err != nil {
			return o.st, err
		}
	}
	o.stale = false
	return o.st, nil
}

// construct runs `new Class(ctx, env)`.
func (o *jsObject) construct() error {
	o.constructing.Store(true)
	defer o.constructing.Store(false)
	iso := o.st.iso
	return iso.Do(context.Background(), func(rt *goja.Runtime) error {
		o.sockets = map[*worker.WebSocket]*goja.Object{}
		in := iso.Internal()
		mk, _ := goja.AssertFunction(in.Get("objectState"))
		ctx, err := mk(goja.Undefined(), rt.ToValue(o), jsbind.ObjectID(iso, o.state.ID), jsbind.Storage(iso, o.state.Storage))
		if err != nil {
			return err
		}
		ctor, _ := goja.AssertConstructor(o.st.classes[o.js])
		inst, err := ctor(nil, ctx, o.st.env(o.env))
		if err != nil {
			return fmt.Errorf("the constructor of %s threw: %w", o.js, jsErr(iso, err))
		}
		o.inst = inst
		return nil
	})
}

// call runs the instance's method name with the arguments args makes, in
// an event with ctx, and converts what it settles with.
func objectCall[T any](o *jsObject, ctx context.Context, name string, args func(rt *goja.Runtime) ([]goja.Value, error), done func(ev *jsrt.Event, rt *goja.Runtime, v goja.Value) (T, error)) (T, *jsrt.Event, error) {
	st, err := o.isolate(ctx)
	if err != nil {
		var zero T
		ev := st.iso.NewEvent(ctx)
		return zero, ev, err
	}
	iso := st.iso
	ev := o.newEvent(iso, ctx)
	res, err := jsrt.Call(ev, jsrt.CallOptions{}, func(rt *goja.Runtime) (goja.Value, error) {
		if o.inst == nil {
			return nil, errors.New("the object was disposed")
		}
		a, err := args(rt)
		if err != nil {
			return nil, err
		}
		callObj, _ := goja.AssertFunction(iso.Internal().Get("callObject"))
		return callObj(goja.Undefined(), append([]goja.Value{o.inst, rt.ToValue(name)}, a...)...)
	}, func(rt *goja.Runtime, v goja.Value) (T, error) { return done(ev, rt, v) })
	return res, ev, err
}

// newEvent starts an event of the object, which owns the timers its
// JavaScript sets (jsrt.TimerOwner).
func (o *jsObject) newEvent(iso *jsrt.Isolate, ctx context.Context) *jsrt.Event {
	ev := iso.NewEvent(ctx)
	ev.RunTimersWith(o)
	return ev
}

// Armed implements jsrt.TimerOwner: an object with a timer armed does
// not hibernate.
func (o *jsObject) Armed(delta int) { o.timers.Add(int32(delta)) }

// RunTimer implements jsrt.TimerOwner: a timer's callback runs in the
// object's turn, as an event of its own, so that what it writes is gated
// and committed; a disposed object's timers run no more.
func (o *jsObject) RunTimer(run func(ctx context.Context) error) {
	if o.disposed.Load() {
		return
	}
	err := o.state.BlockConcurrencyWhile(context.Background(), run)
	if err != nil && !o.disposed.Load() {
		o.v.cfg.Logger.Debug("an object's timer", "object", o.state.ID, "err", err)
	}
}

// Fetch implements worker.Object: the instance's fetch(request).
func (o *jsObject) Fetch(w http.ResponseWriter, r *http.Request) {
	out, ev, err := objectCall(o, fetch.WithLive(r.Context(), r), "fetch", func(rt *goja.Runtime) ([]goja.Value, error) {
		req, err := fetch.NewRequest(o.st.iso, r)
		return []goja.Value{req}, err
	}, func(ev *jsrt.Event, rt *goja.Runtime, v goja.Value) (*fetch.Outgoing, error) {
		return fetch.ReadResponse(ev, v)
	})
	defer ev.End()
	if err != nil {
		o.v.fail(w, r, err)
		return
	}
	switch {
	case out.WebSocket != nil:
		o.acceptSocket(w, r, ev, out)
	case out.Passthrough != nil:
		o.v.write(w, r, ev, out)
	default:
		// A body JavaScript streams is read with the input gate open, so
		// that other events (which may feed the stream) run meanwhile.
		if err := worker.Await(r.Context(), func() error { return out.WriteTo(w) }); err != nil && r.Context().Err() == nil {
			o.v.cfg.Logger.Warn("the object's response body was cut short", "object", o.state.ID, "err", err)
		}
	}
}

// Alarm implements worker.Alarmer: the instance's alarm(alarmInfo).
func (o *jsObject) Alarm(ctx context.Context, info worker.AlarmInfo) error {
	_, ev, err := objectCall(o, ctx, "alarm", func(rt *goja.Runtime) ([]goja.Value, error) {
		ai := rt.NewObject()
		ai.Set("retryCount", info.RetryCount)
		ai.Set("isRetry", info.IsRetry)
		return []goja.Value{ai}, nil
	}, discard)
	ev.End()
	return o.logged("alarm", err)
}

func discard(*jsrt.Event, *goja.Runtime, goja.Value) (struct{}, error) { return struct{}{}, nil }

// logged logs a handler's failure with its stack and returns it.
func (o *jsObject) logged(handler string, err error) error {
	if err == nil {
		return nil
	}
	var je *jsrt.Error
	if errors.As(err, &je) {
		o.v.cfg.Logger.Error("Uncaught "+firstLine(je.Error()), "object", o.state.ID, "handler", handler, "stack", je.Stack)
	}
	return err
}

// Methods implements worker.RPCObject: the class's methods, called with
// JavaScript RPC (or worker.Call from Go).
func (o *jsObject) Methods() worker.Methods {
	ms := make(worker.Methods, len(o.info.Methods))
	for _, name := range o.info.Methods {
		ms[name] = o.method(name)
	}
	return ms
}

// method calls the instance's method name with the payload's arguments
// and returns its serialized result; an exception becomes an RPCError
// whose code names its class.
func (o *jsObject) method(name string) worker.Method {
	return func(ctx context.Context, arg []byte) ([]byte, error) {
		iso := o.st.iso
		out, ev, err := objectCall(o, ctx, name, func(rt *goja.Runtime) ([]goja.Value, error) {
			return rpcArgs(iso, arg)
		}, func(ev *jsrt.Event, rt *goja.Runtime, v goja.Value) ([]byte, error) {
			return rpcResult(iso, v)
		})
		ev.End()
		return out, rpcError(o.logged(name, err))
	}
}

// Hibernatable implements worker.Hibernatable: a class with WebSocket
// handlers whose sockets were all accepted with ctx.acceptWebSocket.
func (o *jsObject) Hibernatable() bool {
	return o.info.Hibernation && o.nstandard.Load() == 0 && o.timers.Load() == 0
}

// Dispose implements worker.Disposer: the instance leaves its isolate.
func (o *jsObject) Dispose() {
	if !o.disposed.CompareAndSwap(false, true) {
		return
	}
	o.st.iso.StopTimers(o)
	o.st.iso.Do(context.Background(), func(*goja.Runtime) error {
		o.inst = nil
		o.sockets = nil
		return nil
	})
	o.v.release()
}

// acceptSocket accepts the WebSocket an object's fetch returned, with the
// tags given to ctx.acceptWebSocket, through the host's object runtime.
func (o *jsObject) acceptSocket(w http.ResponseWriter, r *http.Request, ev *jsrt.Event, out *fetch.Outgoing) {
	iso := o.st.iso
	type found struct {
		server *goja.Object
		mode   string
		tags   []string
	}
	f, err := jsrt.Call(ev, jsrt.CallOptions{MayWaitForever: true}, func(rt *goja.Runtime) (goja.Value, error) {
		get, _ := goja.AssertFunction(iso.Internal().Get("wsServer"))
		return get(goja.Undefined(), out.WebSocket)
	}, func(rt *goja.Runtime, val goja.Value) (found, error) {
		a := val.ToObject(rt)
		var f found
		f.server = a.Get("0").ToObject(rt)
		f.mode = a.Get("1").String()
		rt.ExportTo(a.Get("2"), &f.tags)
		return f, nil
	})
	if err == nil && f.mode == "" {
		err = errors.New("return a WebSocket response only after ctx.acceptWebSocket(server) or server.accept()")
	}
	if err != nil {
		o.v.fail(w, r, err)
		return
	}
	ws, err := o.state.AcceptWebSocket(w, r, f.tags...)
	if err != nil {
		o.v.cfg.Logger.Warn("accept a WebSocket", "object", o.state.ID, "err", err)
		ev.Post(func(rt *goja.Runtime) {
			closed, _ := goja.AssertFunction(iso.Internal().Get("wsClosed"))
			closed(goja.Undefined(), f.server)
		})
		return
	}
	h := &wsHandle{ws: ws, log: o.v.cfg.Logger}
	if f.mode == "accept" {
		o.standard.Store(ws, struct{}{})
		o.nstandard.Add(1)
	}
	ev.Post(func(rt *goja.Runtime) {
		attach, _ := goja.AssertFunction(iso.Internal().Get("wsAttach"))
		attach(goja.Undefined(), f.server, rt.ToValue(h))
		if o.sockets != nil {
			o.sockets[ws] = f.server
		}
	})
}

// socket is the WebSocket object of ws in this instance, made for a
// socket accepted before the object hibernated. Call it on the loop.
func (o *jsObject) socket(rt *goja.Runtime, ws *worker.WebSocket) *goja.Object {
	if s, ok := o.sockets[ws]; ok {
		return s
	}
	wrap, _ := goja.AssertFunction(o.st.iso.Internal().Get("wsWrap"))
	tags := ws.Tags()
	t := make([]any, len(tags))
	for k, x := range tags {
		t[k] = x
	}
	v, err := wrap(goja.Undefined(), rt.ToValue(&wsHandle{ws: ws, log: o.v.cfg.Logger}), rt.NewArray(t...))
	if err != nil {
		panic(err)
	}
	s := v.ToObject(rt)
	if o.sockets != nil {
		o.sockets[ws] = s
	}
	return s
}

// socketEvent delivers a socket's message, close or error: to the class's
// handler for a socket accepted with ctx.acceptWebSocket, else to the
// socket's listeners.
func (o *jsObject) socketEvent(ctx context.Context, ws *worker.WebSocket, handler, kind string, args func(rt *goja.Runtime) []goja.Value) {
	iso := o.st.iso
	ev := o.newEvent(iso, ctx)
	defer ev.End()
	_, err := jsrt.Call(ev, jsrt.CallOptions{}, func(rt *goja.Runtime) (goja.Value, error) {
		if o.inst == nil {
			return goja.Undefined(), nil
		}
		s := o.socket(rt, ws)
		isHib, _ := goja.AssertFunction(iso.Internal().Get("wsIsHibernation"))
		h, _ := isHib(goja.Undefined(), s)
		if kind == "close" {
			// Closed, so that getWebSockets leaves it out, but kept in
			// the map until the handler ran, so that it stays one object.
			closed, _ := goja.AssertFunction(iso.Internal().Get("wsClosed"))
			closed(goja.Undefined(), s)
			defer delete(o.sockets, ws)
		}
		if h.ToBoolean() {
			if f, ok := goja.AssertFunction(o.inst.Get(handler)); ok {
				return f(o.inst, append([]goja.Value{s}, args(rt)...)...)
			}
			return goja.Undefined(), nil
		}
		dispatch, _ := goja.AssertFunction(iso.Internal().Get("wsDispatch"))
		return dispatch(goja.Undefined(), append([]goja.Value{s, rt.ToValue(kind)}, args(rt)...)...)
	}, func(*goja.Runtime, goja.Value) (struct{}, error) { return struct{}{}, nil })
	o.logged(handler, err)
}

// WebSocketMessage implements worker.WebSocketMessageHandler.
func (o *jsObject) WebSocketMessage(ctx context.Context, ws *worker.WebSocket, messageType int, data []byte) {
	o.socketEvent(ctx, ws, "webSocketMessage", "message", func(rt *goja.Runtime) []goja.Value {
		if messageType == worker.TextMessage {
			return []goja.Value{rt.ToValue(string(data))}
		}
		return []goja.Value{o.st.iso.NewArrayBuffer(append([]byte(nil), data...))}
	})
}

// WebSocketClose implements worker.WebSocketCloseHandler.
func (o *jsObject) WebSocketClose(ctx context.Context, ws *worker.WebSocket, code int, reason string) {
	o.socketEvent(ctx, ws, "webSocketClose", "close", func(rt *goja.Runtime) []goja.Value {
		return []goja.Value{rt.ToValue(code), rt.ToValue(reason), rt.ToValue(code != 1006)}
	})
	if _, ok := o.standard.LoadAndDelete(ws); ok {
		o.nstandard.Add(-1)
	}
}

// WebSocketError implements worker.WebSocketErrorHandler.
func (o *jsObject) WebSocketError(ctx context.Context, ws *worker.WebSocket, err error) {
	o.socketEvent(ctx, ws, "webSocketError", "error", func(rt *goja.Runtime) []goja.Value {
		return []goja.Value{o.st.iso.ErrorValue(err)}
	})
}

// rpcArgs decodes a method call's payload into its arguments.
func rpcArgs(iso *jsrt.Isolate, payload []byte) ([]goja.Value, error) {
	rt := iso.Runtime()
	un, _ := goja.AssertFunction(iso.Internal().Get("rpcUnargs"))
	text := string(payload)
	if len(payload) == 0 {
		text = "null"
	}
	v, err := un(goja.Undefined(), rt.ToValue(text))
	if err != nil {
		return nil, err
	}
	var args []goja.Value
	if err := rt.ExportTo(v, &args); err != nil {
		return nil, err
	}
	return args, nil
}

// rpcResult serializes a method's result.
func rpcResult(iso *jsrt.Isolate, v goja.Value) ([]byte, error) {
	ser, _ := goja.AssertFunction(iso.Internal().Get("serialize"))
	s, err := ser(goja.Undefined(), v)
	if err != nil {
		return nil, err
	}
	return []byte(s.String()), nil
}

// rpcError turns a JavaScript exception into the RPCError its caller
// rethrows as an error of the same class.
func rpcError(err error) error {
	var je *jsrt.Error
	if errors.As(err, &je) {
		name := je.Name
		if name == "" {
			name = "Error"
		}
		return &worker.RPCError{Code: jsbind.RPCErrorCode(name), Message: je.Message}
	}
	return err
}
