package jsworker

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/webapi/fetch"
	"github.com/dwk/fleet/appliance/worker"
)

// wsHandle is a WebSocket the host accepted, as JavaScript holds it: an
// object's (a worker.WebSocket, whose sends pass the object's output
// gate) or a worker's (a connection the adapter upgraded). Sends are
// queued and written in order by a goroutine that runs while the queue is
// not empty, so that JavaScript never waits for a slow client.
type wsHandle struct {
	ws   *worker.WebSocket
	conn *websocket.Conn
	log  interface{ Debug(string, ...any) }

	mu      sync.Mutex
	queue   []wsOut
	writing bool
}

type wsOut struct {
	text   string
	binary []byte
	isText bool
	close  bool
	code   int
}

// writeTimeout bounds one write to a worker's socket, as
// worker.WebSocketWriteTimeout does for objects'.
const writeTimeout = worker.WebSocketWriteTimeout

func (h *wsHandle) push(m wsOut) {
	h.mu.Lock()
	h.queue = append(h.queue, m)
	start := !h.writing
	h.writing = true
	h.mu.Unlock()
	if start {
		go h.drain()
	}
}

func (h *wsHandle) drain() {
	for {
		h.mu.Lock()
		if len(h.queue) == 0 {
			h.writing = false
			h.mu.Unlock()
			return
		}
		m := h.queue[0]
		h.queue = h.queue[1:]
		h.mu.Unlock()
		if err := h.write(m); err != nil {
			h.log.Debug("websocket write", "err", err)
		}
	}
}

func (h *wsHandle) write(m wsOut) error {
	if h.ws != nil {
		switch {
		case m.close:
			return h.ws.Close(m.code, m.text)
		case m.isText:
			return h.ws.Send(worker.TextMessage, []byte(m.text))
		default:
			return h.ws.Send(worker.BinaryMessage, m.binary)
		}
	}
	deadline := time.Now().Add(writeTimeout)
	switch {
	case m.close:
		return h.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(m.code, m.text), deadline)
	case m.isText:
		h.conn.SetWriteDeadline(deadline)
		return h.conn.WriteMessage(websocket.TextMessage, []byte(m.text))
	default:
		h.conn.SetWriteDeadline(deadline)
		return h.conn.WriteMessage(websocket.BinaryMessage, m.binary)
	}
}

func installSocketNatives(iso *jsrt.Isolate, cf *goja.Object) {
	rt := iso.Runtime()
	handle := func(v goja.Value) *wsHandle {
		h, ok := v.Export().(*wsHandle)
		if !ok {
			panic(rt.NewTypeError("not an accepted WebSocket"))
		}
		return h
	}
	cf.Set("wsSend", func(c goja.FunctionCall) goja.Value {
		h := handle(c.Argument(0))
		if s, ok := c.Argument(1).Export().(string); ok {
			h.push(wsOut{text: s, isText: true})
		} else if b, ok := iso.Bytes(c.Argument(1)); ok {
			h.push(wsOut{binary: append([]byte(nil), b...)})
		}
		return goja.Undefined()
	})
	cf.Set("wsClose", func(c goja.FunctionCall) goja.Value {
		handle(c.Argument(0)).push(wsOut{close: true, code: int(c.Argument(1).ToInteger()), text: c.Argument(2).String()})
		return goja.Undefined()
	})
	cf.Set("wsSetAttachment", func(c goja.FunctionCall) goja.Value {
		h := handle(c.Argument(0))
		if h.ws == nil {
			panic(rt.NewTypeError("serializeAttachment() needs a WebSocket accepted with ctx.acceptWebSocket()"))
		}
		var v any
		if t := c.Argument(1); !goja.IsNull(t) {
			v = json.RawMessage(t.String())
		}
		if err := h.ws.SerializeAttachment(v); err != nil {
			iso.Throw(jsrt.Errorf("RangeError", "%v", err))
		}
		return goja.Undefined()
	})
	cf.Set("wsGetAttachment", func(c goja.FunctionCall) goja.Value {
		h := handle(c.Argument(0))
		if h.ws == nil {
			return goja.Null()
		}
		var raw json.RawMessage
		ok, err := h.ws.DeserializeAttachment(&raw)
		if err != nil || !ok {
			return goja.Null()
		}
		return rt.ToValue(string(raw))
	})
}

var upgrader = websocket.Upgrader{
	// The worker decides whom it accepts, as on Cloudflare.
	CheckOrigin: func(*http.Request) bool { return true },
}

// serveWebSocket accepts the WebSocket a worker's fetch handler returned
// (a WebSocketPair's client end, whose server end the worker accepted):
// the connection is upgraded, and its messages and end become events on
// the server end, in the isolate that made it.
func (v *version) serveWebSocket(rw http.ResponseWriter, r *http.Request, ev *jsrt.Event, out *fetch.Outgoing) {
	iso := ev.Isolate()
	type found struct {
		server *goja.Object
		mode   string
	}
	f, err := jsrt.Call(ev, jsrt.CallOptions{MayWaitForever: true}, func(rt *goja.Runtime) (goja.Value, error) {
		get, _ := goja.AssertFunction(iso.Internal().Get("wsServer"))
		return get(goja.Undefined(), out.WebSocket)
	}, func(rt *goja.Runtime, val goja.Value) (found, error) {
		o := val.ToObject(rt)
		return found{server: o.Get("0").ToObject(rt), mode: o.Get("1").String()}, nil
	})
	if err == nil && f.mode != "accept" {
		err = errors.New("return a WebSocket response only after calling accept() on the pair's server end")
	}
	if err == nil && !websocket.IsWebSocketUpgrade(r) {
		err = errors.New("the handler returned a WebSocket, but the request is not a WebSocket upgrade")
	}
	if err != nil {
		v.fail(rw, r, err)
		return
	}
	conn, err := upgrader.Upgrade(rw, r, nil)
	if err != nil {
		return // the upgrader answered the client
	}
	h := &wsHandle{conn: conn, log: v.cfg.Logger}
	ctx := r.Context()
	if !ev.Post(func(rt *goja.Runtime) {
		attach, _ := goja.AssertFunction(iso.Internal().Get("wsAttach"))
		attach(goja.Undefined(), f.server, rt.ToValue(h))
		iso.AddSource()
	}) {
		conn.Close()
		return
	}
	dispatch, _ := goja.AssertFunction(iso.Internal().Get("wsDispatch"))
	deliver := func(kind string, args func(rt *goja.Runtime) []goja.Value) {
		mev := iso.NewEvent(ctx)
		_, err := jsrt.Call(mev, jsrt.CallOptions{MayWaitForever: true}, func(rt *goja.Runtime) (goja.Value, error) {
			return dispatch(goja.Undefined(), append([]goja.Value{f.server, rt.ToValue(kind)}, args(rt)...)...)
		}, func(*goja.Runtime, goja.Value) (struct{}, error) { return struct{}{}, nil })
		mev.End()
		if err != nil {
			v.cfg.Logger.Error("a WebSocket listener failed", "err", err)
		}
	}
	defer conn.Close()
	for {
		mt, data, err := conn.ReadMessage()
		if err != nil {
			code, reason := websocket.CloseAbnormalClosure, ""
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				code, reason = ce.Code, ce.Text
			}
			deliver("close", func(rt *goja.Runtime) []goja.Value {
				return []goja.Value{rt.ToValue(code), rt.ToValue(reason), rt.ToValue(code != websocket.CloseAbnormalClosure)}
			})
			ev.Post(func(*goja.Runtime) { iso.RemoveSource() })
			return
		}
		deliver("message", func(rt *goja.Runtime) []goja.Value {
			if mt == websocket.TextMessage {
				return []goja.Value{rt.ToValue(string(data))}
			}
			return []goja.Value{iso.NewArrayBuffer(data)}
		})
	}
}
