package fetch

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// Body kinds, as body.js numbers them.
const (
	kindNone   = 0
	kindString = 1
	kindBytes  = 2
	kindStream = 3
	kindGo     = 4
)

// copyBufs holds the buffers WriteTo copies Go bodies through: an object's
// or a service's response passed on unread would otherwise cost a fresh
// 32 KiB buffer per request.
var copyBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// Outgoing is a JavaScript Response taken apart for Go to write.
type Outgoing struct {
	Status     int
	StatusText string
	Header     http.Header
	// WebSocket is the response's webSocket (status 101): the client end
	// of a WebSocketPair. Use it only on the loop.
	WebSocket goja.Value
	// Passthrough is what internal.passthroughResponse was given: a
	// target the host hands the live request to.
	Passthrough any

	body body
}

// body is a response body as Go holds it.
type body struct {
	kind   int
	bytes  []byte
	goBody *goBody
	stream *StreamReader
}

// ReadResponse takes the JavaScript Response v apart. A value that is not
// a Response is an error that says what the handler returned. A stream
// body is read later, through ev, by WriteTo. Call it on the loop.
func ReadResponse(ev *jsrt.Event, v goja.Value) (*Outgoing, error) {
	iso := ev.Isolate()
	rt := iso.Runtime()
	parts, err := internalFunc(iso, "responseParts")
	if err != nil {
		return nil, err
	}
	pv, err := parts(goja.Undefined(), v)
	if err != nil {
		return nil, err
	}
	p := pv.(*goja.Object)
	o := &Outgoing{
		Status:     int(p.Get("0").ToInteger()),
		StatusText: p.Get("1").String(),
		Header:     headerOf(rt, p.Get("2")),
	}
	if ws := p.Get("5"); ws != nil && !goja.IsNull(ws) && !goja.IsUndefined(ws) {
		o.WebSocket = ws
	}
	if pt := p.Get("6"); pt != nil && !goja.IsNull(pt) && !goja.IsUndefined(pt) {
		o.Passthrough = pt.Export()
	}
	o.body, err = takeBody(ev, int(p.Get("3").ToInteger()), p.Get("4"))
	return o, err
}

// takeBody turns a body kind and value from body.js into a Go body. Call
// it on the loop.
func takeBody(ev *jsrt.Event, kind int, v goja.Value) (body, error) {
	iso := ev.Isolate()
	switch kind {
	case kindNone:
		return body{}, nil
	case kindString:
		return body{kind: kindBytes, bytes: []byte(v.String())}, nil
	case kindBytes:
		b, ok := iso.Bytes(v)
		if !ok {
			return body{}, errors.New("fetch: a bytes body holds no bytes")
		}
		return body{kind: kindBytes, bytes: append([]byte(nil), b...)}, nil
	case kindGo:
		b, ok := bodyOf(v)
		if !ok {
			return body{}, errors.New("fetch: a Go body without its handle")
		}
		return body{kind: kindGo, goBody: b}, nil
	case kindStream:
		r, err := NewStreamReader(ev, v)
		if err != nil {
			return body{}, err
		}
		return body{kind: kindStream, stream: r}, nil
	}
	return body{}, fmt.Errorf("fetch: unknown body kind %d", kind)
}

// headerOf reads a flat [name, value, ...] list into a header.
func headerOf(rt *goja.Runtime, v goja.Value) http.Header {
	var flat []string
	rt.ExportTo(v, &flat)
	h := make(http.Header, len(flat)/2)
	for k := 0; k+1 < len(flat); k += 2 {
		h.Add(flat[k], flat[k+1])
	}
	return h
}

// HasBody reports whether the response has a body.
func (o *Outgoing) HasBody() bool { return o.body.kind != kindNone }

// Reader returns the body as a reader, for a Go consumer (a stub call's
// response); the caller closes it. It is empty for no body.
func (o *Outgoing) Reader() io.ReadCloser {
	switch o.body.kind {
	case kindBytes:
		return io.NopCloser(bytesReader(o.body.bytes))
	case kindGo:
		return o.body.goBody
	case kindStream:
		return o.body.stream
	}
	return http.NoBody
}

// Discard releases the body unread.
func (o *Outgoing) Discard() {
	o.Reader().Close()
}

// WriteTo writes the response to w: headers, then the body, flushing
// after every chunk of a stream so that server-sent events reach the
// client as they are produced. It does not run on the loop. An error
// after the headers were written means the body was cut short.
func (o *Outgoing) WriteTo(w http.ResponseWriter) error {
	h := w.Header()
	for k, vs := range o.Header {
		h[k] = vs
	}
	if o.body.kind == kindBytes && h.Get("Content-Length") == "" {
		h.Set("Content-Length", strconv.Itoa(len(o.body.bytes)))
	}
	status := o.Status
	if status < 100 || status > 999 {
		status = http.StatusInternalServerError
	}
	w.WriteHeader(status)
	switch o.body.kind {
	case kindBytes:
		_, err := w.Write(o.body.bytes)
		return err
	case kindGo:
		defer o.body.goBody.Close()
		buf := copyBufs.Get().(*[]byte)
		defer copyBufs.Put(buf)
		_, err := io.CopyBuffer(w, o.body.goBody, *buf)
		return err
	case kindStream:
		return o.body.stream.pump(w)
	}
	return nil
}
