package jsbind

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/webapi/fetch"
	"github.com/dwk/fleet/appliance/worker"
)

// ObjectNamespace is the DurableObjectNamespace object of an object
// binding. Call it on the loop.
func ObjectNamespace(iso *jsrt.Isolate, ns worker.ObjectNamespace) goja.Value {
	return construct(iso, "objectNamespace", iso.Runtime().ToValue(ns))
}

// ObjectID is the DurableObjectId object of id. Call it on the loop.
func ObjectID(iso *jsrt.Isolate, id worker.ObjectID) goja.Value {
	rt := iso.Runtime()
	return construct(iso, "objectId", rt.ToValue(id), rt.ToValue(id.String()), rt.ToValue(id.Name()))
}

// Service is the object of a service binding. Call it on the loop.
func Service(iso *jsrt.Isolate, s worker.Service) goja.Value {
	return construct(iso, "serviceBinding", iso.Runtime().ToValue(s))
}

// RPCErrorCode is the worker.RPCError code a JavaScript method's exception
// travels with: "js:" and the error's name, so the caller rethrows an
// error of the same class.
func RPCErrorCode(name string) string { return "js:" + name }

func installObjects(iso *jsrt.Isolate, b *goja.Object) {
	rt := iso.Runtime()
	namespace := func(v goja.Value) worker.ObjectNamespace {
		ns, ok := v.Export().(worker.ObjectNamespace)
		if !ok {
			panic(rt.NewTypeError("not a Durable Object namespace"))
		}
		return ns
	}
	b.Set("idFromName", func(c goja.FunctionCall) goja.Value {
		return ObjectID(iso, namespace(c.Argument(0)).IDFromName(c.Argument(1).String()))
	})
	b.Set("newUniqueId", func(c goja.FunctionCall) goja.Value {
		return ObjectID(iso, namespace(c.Argument(0)).NewUniqueID())
	})
	b.Set("idFromString", func(c goja.FunctionCall) goja.Value {
		id, err := namespace(c.Argument(0)).IDFromString(c.Argument(1).String())
		if err != nil {
			iso.Throw(jsrt.Errorf("TypeError", "Invalid Durable Object ID: %v", err))
		}
		return ObjectID(iso, id)
	})
	b.Set("stub", func(c goja.FunctionCall) goja.Value {
		id, ok := c.Argument(1).Export().(worker.ObjectID)
		if !ok {
			panic(rt.NewTypeError("not a Durable Object id"))
		}
		return rt.ToValue(namespace(c.Argument(0)).Get(id))
	})
	b.Set("stubFetch", func(c goja.FunctionCall) goja.Value {
		s, ok := c.Argument(0).Export().(worker.Stub)
		if !ok {
			panic(rt.NewTypeError("not a Durable Object stub"))
		}
		return sendFetch(iso, s, s, c.Argument(1))
	})
	b.Set("stubCall", func(c goja.FunctionCall) goja.Value {
		s, ok := c.Argument(0).Export().(worker.Stub)
		if !ok {
			panic(rt.NewTypeError("not a Durable Object stub"))
		}
		return sendCall(iso, s, c.Argument(1).String(), c.Argument(2).String())
	})
	b.Set("serviceFetch", func(c goja.FunctionCall) goja.Value {
		s, ok := c.Argument(0).Export().(worker.Service)
		if !ok {
			panic(rt.NewTypeError("not a service binding"))
		}
		return sendFetch(iso, s, s, c.Argument(1))
	})
	b.Set("serviceCall", func(c goja.FunctionCall) goja.Value {
		s, ok := c.Argument(0).Export().(worker.Service)
		if !ok {
			panic(rt.NewTypeError("not a service binding"))
		}
		return sendCall(iso, s, c.Argument(1).String(), c.Argument(2).String())
	})
}

// fetcher is what a stub and a service binding have in common.
type fetcher interface {
	Fetch(ctx context.Context, req *http.Request) (*http.Response, error)
}

// sendFetch sends a Request to an object or a service. The live request
// the host received, when it asks for a WebSocket, is handed on as it is:
// the handler returns the passthrough Response and the host serves the
// upgrade with the target.
func sendFetch(iso *jsrt.Isolate, f fetcher, target http.Handler, reqV goja.Value) goja.Value {
	ev := iso.Current()
	if in, ok := fetch.IncomingOf(iso, reqV); ok && fetch.IsUpgrade(in.R) {
		v, err := fetch.Passthrough(iso, target)
		if err != nil {
			return iso.Rejected(err)
		}
		return iso.Resolved(v)
	}
	req, _, err := fetch.GoRequest(ev.Context(), ev, reqV)
	if err != nil {
		return iso.Rejected(err)
	}
	if live := fetch.LiveOf(ev.Context()); live != nil && fetch.IsUpgrade(req) && fetch.IsUpgrade(live) {
		// An upgrade the JavaScript built anew (new Request(url, request)):
		// the live connection goes on, as the JavaScript rewrote it.
		v, err := fetch.Passthrough(iso, fetch.Rewritten{Target: target, Method: req.Method, URL: req.URL, Header: req.Header})
		if err != nil {
			return iso.Rejected(err)
		}
		return iso.Resolved(v)
	}
	// Stubs and services open the object's input gate themselves.
	return iso.Async(func(ctx context.Context) (jsrt.Settle, error) {
		resp, err := f.Fetch(ctx, req.WithContext(ctx))
		if err != nil {
			return nil, err
		}
		return func(*goja.Runtime) (goja.Value, error) { return fetch.NewResponse(ev, resp) }, nil
	})
}

// sendCall calls a method of an object or a service's entrypoint with a
// serialized payload and settles with the serialized result; a method's
// exception comes back as an error of its class.
func sendCall(iso *jsrt.Isolate, target worker.Caller, method, payload string) goja.Value {
	return iso.Async(func(ctx context.Context) (jsrt.Settle, error) {
		out, err := worker.Call[json.RawMessage, json.RawMessage](ctx, target, method, json.RawMessage(payload))
		if err != nil {
			var re *worker.RPCError
			if errors.As(err, &re) {
				if name, ok := strings.CutPrefix(re.Code, "js:"); ok {
					return nil, &jsrt.TypedError{Name: name, Message: re.Message}
				}
			}
			return nil, err
		}
		return func(rt *goja.Runtime) (goja.Value, error) { return rt.ToValue(string(out)), nil }, nil
	})
}
