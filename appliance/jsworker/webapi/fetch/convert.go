package fetch

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// GoRequest turns a JavaScript Request into a Go request with ctx, for a
// call that leaves JavaScript (an object's stub, a service binding). Its
// body, when JavaScript streams it, is read through ev. When the request
// is still the one the host received, the live request comes back too,
// for a caller that can hand it on as it is (a WebSocket upgrade). Call
// it on the loop.
func GoRequest(ctx context.Context, ev *jsrt.Event, v goja.Value) (*http.Request, *Incoming, error) {
	iso := ev.Isolate()
	rt := iso.Runtime()
	parts, err := internalFunc(iso, "requestParts")
	if err != nil {
		return nil, nil, err
	}
	pv, err := parts(goja.Undefined(), v)
	if err != nil {
		return nil, nil, err
	}
	p := pv.(*goja.Object)
	method, url := p.Get("0").String(), p.Get("1").String()
	header := headerOf(rt, p.Get("2"))
	b, err := takeBody(ev, int(p.Get("3").ToInteger()), p.Get("4"))
	if err != nil {
		return nil, nil, err
	}
	in, _ := p.Get("5").Export().(*Incoming)
	o := &Outgoing{body: b}
	req, err := http.NewRequestWithContext(ctx, method, url, o.Reader())
	if err != nil {
		return nil, nil, jsrt.Errorf("TypeError", "%v", err)
	}
	req.Header = header
	switch b.kind {
	case kindBytes:
		req.ContentLength = int64(len(b.bytes))
	case kindGo, kindStream:
		// Unknown length: the receiver reads to the end (0 would mean no
		// body).
		req.ContentLength = -1
		if in != nil && b.goBody == in.body && in.R.ContentLength > 0 {
			req.ContentLength = in.R.ContentLength
		}
	}
	if in != nil {
		req.RemoteAddr = in.R.RemoteAddr
		req.TLS = in.R.TLS
		req.Host = in.R.Host
	}
	return req, in, nil
}

// NewResponse makes the JavaScript Response of a Go response (from an
// object or a service). Its body streams from resp.Body, which is closed
// when read or when ev ends. Call it on the loop.
func NewResponse(ev *jsrt.Event, resp *http.Response) (goja.Value, error) {
	iso := ev.Isolate()
	rt := iso.Runtime()
	mk, err := internalFunc(iso, "fetchResponse")
	if err != nil {
		return nil, err
	}
	var h goja.Value = goja.Null()
	if resp.Body != nil && resp.Body != http.NoBody {
		gb := &goBody{r: resp.Body}
		ev.Defer(func() { gb.Close() })
		h = rt.ToValue(gb)
	}
	text := strings.TrimSpace(strings.TrimPrefix(resp.Status, fmt.Sprint(resp.StatusCode)))
	url := ""
	if resp.Request != nil && resp.Request.URL != nil {
		url = resp.Request.URL.String()
	}
	return mk(goja.Undefined(), rt.ToValue(resp.StatusCode), rt.ToValue(text), flatHeaders(rt, resp.Header), h, rt.ToValue(url), rt.ToValue(false))
}

// Passthrough makes the Response that stands for handing the live request
// to target (an http.Handler: an object's stub, a service): a handler that
// returns it has the host serve the request with target. Call it on the
// loop.
func Passthrough(iso *jsrt.Isolate, target http.Handler) (goja.Value, error) {
	mk, err := internalFunc(iso, "passthroughResponse")
	if err != nil {
		return nil, err
	}
	return mk(goja.Undefined(), iso.Runtime().ToValue(target))
}

// IsUpgrade reports whether r asks for a WebSocket.
func IsUpgrade(r *http.Request) bool {
	return strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

type liveKey struct{}

// WithLive returns ctx carrying r, the live request an event serves, so
// that a WebSocket upgrade the event's JavaScript builds anew (new
// Request(url, request)) can still be handed on with r's connection.
func WithLive(ctx context.Context, r *http.Request) context.Context {
	return context.WithValue(ctx, liveKey{}, r)
}

// LiveOf is the live request WithLive put in ctx, or nil.
func LiveOf(ctx context.Context) *http.Request {
	r, _ := ctx.Value(liveKey{}).(*http.Request)
	return r
}

// Rewritten hands a live request on to Target as JavaScript rewrote it:
// its method, URL and headers replaced, its connection (the upgrade)
// kept.
type Rewritten struct {
	Target http.Handler
	Method string
	URL    *url.URL
	Header http.Header
}

// ServeHTTP serves the live request r with Target, rewritten.
func (rw Rewritten) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	r2 := r.Clone(r.Context())
	r2.Method = rw.Method
	r2.URL = &url.URL{Path: rw.URL.Path, RawPath: rw.URL.RawPath, RawQuery: rw.URL.RawQuery}
	r2.RequestURI = r2.URL.RequestURI()
	if rw.URL.Host != "" {
		r2.Host = rw.URL.Host
	}
	r2.Header = rw.Header
	rw.Target.ServeHTTP(w, r2)
}
