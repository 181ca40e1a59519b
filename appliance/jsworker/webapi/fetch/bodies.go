package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// MaxBodyRead caps a body read whole (text, json, arrayBuffer): 100 MB,
// Cloudflare's request body limit on most plans.
const MaxBodyRead = 100 << 20

// chunkSize is the most one chunk read from a Go body holds.
const chunkSize = 64 << 10

// ErrBodyTooLarge is returned for a body read whole past MaxBodyRead.
var ErrBodyTooLarge = errors.New("the body is larger than 100 MB; read it as a stream")

// goBody is a body Go reads: an incoming request's, a fetch response's.
// One reader at a time: JavaScript's reads are sequential.
type goBody struct {
	mu     sync.Mutex
	r      io.ReadCloser
	closed bool
}

func (b *goBody) read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0, io.EOF
	}
	return b.r.Read(p)
}

func (b *goBody) readAll() ([]byte, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, nil
	}
	data, err := io.ReadAll(io.LimitReader(b.r, MaxBodyRead+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxBodyRead {
		return nil, ErrBodyTooLarge
	}
	b.closeLocked()
	return data, nil
}

// Close ends the body; reads return io.EOF afterwards.
func (b *goBody) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.closeLocked()
}

func (b *goBody) closeLocked() error {
	if b.closed {
		return nil
	}
	b.closed = true
	return b.r.Close()
}

// Read makes goBody an io.Reader for Go consumers (a proxied body).
func (b *goBody) Read(p []byte) (int, error) { return b.read(p) }

// bodyOf finds the Go body behind a handle JavaScript passed.
func bodyOf(v goja.Value) (*goBody, bool) {
	switch h := v.Export().(type) {
	case *goBody:
		return h, true
	case *Incoming:
		return h.body, h.body != nil
	}
	return nil, false
}

func installBodies(iso *jsrt.Isolate, f *goja.Object) {
	rt := iso.Runtime()
	handle := func(c goja.FunctionCall) *goBody {
		b, ok := bodyOf(c.Argument(0))
		if !ok {
			panic(rt.NewTypeError("not a body handle"))
		}
		return b
	}
	f.Set("readChunk", func(c goja.FunctionCall) goja.Value {
		b := handle(c)
		return iso.Async(func(context.Context) (jsrt.Settle, error) {
			buf := make([]byte, chunkSize)
			n, err := b.read(buf)
			if n == 0 && err != nil {
				if err == io.EOF {
					b.Close()
					return func(rt *goja.Runtime) (goja.Value, error) { return goja.Null(), nil }, nil
				}
				return nil, fmt.Errorf("read the body: %w", err)
			}
			return func(*goja.Runtime) (goja.Value, error) { return iso.NewUint8Array(buf[:n:n]), nil }, nil
		})
	})
	f.Set("readAll", func(c goja.FunctionCall) goja.Value {
		b := handle(c)
		return iso.Async(func(context.Context) (jsrt.Settle, error) {
			data, err := b.readAll()
			if err != nil {
				return nil, fmt.Errorf("read the body: %w", err)
			}
			return func(*goja.Runtime) (goja.Value, error) { return iso.NewUint8Array(data), nil }, nil
		})
	})
	f.Set("readAllText", func(c goja.FunctionCall) goja.Value {
		b := handle(c)
		return iso.Async(func(context.Context) (jsrt.Settle, error) {
			data, err := b.readAll()
			if err != nil {
				return nil, fmt.Errorf("read the body: %w", err)
			}
			return func(rt *goja.Runtime) (goja.Value, error) { return rt.ToValue(decodeUTF8(data)), nil }, nil
		})
	})
	f.Set("cancel", func(c goja.FunctionCall) goja.Value {
		if b, ok := bodyOf(c.Argument(0)); ok {
			b.Close()
		}
		return goja.Undefined()
	})
}

// decodeUTF8 is the WHATWG UTF-8 decode: invalid bytes become U+FFFD, a
// leading BOM is dropped.
func decodeUTF8(b []byte) string {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		b = b[3:]
	}
	if utf8.Valid(b) {
		return string(b)
	}
	return string([]rune(string(b)))
}

// flatHeaders is h as the flat [name, value, ...] list Headers takes.
func flatHeaders(rt *goja.Runtime, h http.Header) goja.Value {
	n := 0
	for _, vs := range h {
		n += 2 * len(vs)
	}
	out := make([]any, 0, n)
	for k, vs := range h {
		for _, v := range vs {
			out = append(out, k, v)
		}
	}
	return rt.NewArray(out...)
}
