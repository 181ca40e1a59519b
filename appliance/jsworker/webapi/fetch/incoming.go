package fetch

import (
	"net/http"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// Incoming is a request the host received, as a JavaScript Request holds
// it: the live request, which the adapter may hand on as it is (a
// WebSocket upgrade passed to an object), and its body.
type Incoming struct {
	R    *http.Request
	body *goBody
}

// NewRequest makes the JavaScript Request for r, received by the host.
// Its headers are read from r on first use; its body streams from r.Body.
// Call it on the loop.
func NewRequest(iso *jsrt.Isolate, r *http.Request) (goja.Value, error) {
	in := &Incoming{R: r}
	hasBody := r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0 && r.Method != http.MethodGet && r.Method != http.MethodHead
	if hasBody {
		in.body = &goBody{r: r.Body}
	}
	make, err := internalFunc(iso, "incomingRequest")
	if err != nil {
		return nil, err
	}
	rt := iso.Runtime()
	return make(goja.Undefined(), rt.ToValue(in), rt.ToValue(r.Method), rt.ToValue(RequestURL(r)), rt.ToValue(hasBody))
}

// RequestURL is the full URL of a request the host received, as
// request.url shows it. A request made in process (a service binding's)
// carries its whole URL. Otherwise the scheme is the client's: the one
// the front door names in X-Forwarded-Proto (a request another replica's
// front door passed on arrives over the fleet's TLS link, whatever the
// client used), else the connection's.
func RequestURL(r *http.Request) string {
	if r.URL.IsAbs() {
		return r.URL.String()
	}
	scheme := "http"
	if p := r.Header.Get("X-Forwarded-Proto"); p == "https" || p == "http" {
		scheme = p
	} else if r.TLS != nil {
		scheme = "https"
	}
	host := r.Host
	if host == "" {
		host = "localhost"
	}
	return scheme + "://" + host + r.URL.RequestURI()
}

// IncomingOf is the host's request behind a JavaScript Request, if it
// still is the request the host received (not a copy with another method
// or headers). Call it on the loop.
func IncomingOf(iso *jsrt.Isolate, v goja.Value) (*Incoming, bool) {
	get, err := internalFunc(iso, "requestHandle")
	if err != nil {
		return nil, false
	}
	h, err := get(goja.Undefined(), v)
	if err != nil || h == nil {
		return nil, false
	}
	in, ok := h.Export().(*Incoming)
	return in, ok
}

// funcKey keys the isolate-local cache of the prelude's functions.
type funcKey string

// internalFunc is the function internal[name] of the prelude, looked up
// once per isolate.
func internalFunc(iso *jsrt.Isolate, name string) (goja.Callable, error) {
	if f, ok := iso.Local(funcKey(name)).(goja.Callable); ok {
		return f, nil
	}
	f, ok := goja.AssertFunction(iso.Internal().Get(name))
	if !ok {
		return nil, jsrt.Errorf("Error", "the fetch extension is not installed (no internal.%s)", name)
	}
	iso.SetLocal(funcKey(name), f)
	return f, nil
}
