package fetch

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// StreamReader reads a JavaScript ReadableStream from Go, one chunk per
// trip to the loop. It is for one Go reader at a time.
type StreamReader struct {
	ev     *jsrt.Event
	reader *goja.Object // the stream's default reader; loop only
	buf    []byte
	err    error

	closeOnce sync.Once
}

// NewStreamReader locks stream (a ReadableStream) to a reader for Go. Call
// it on the loop.
func NewStreamReader(ev *jsrt.Event, stream goja.Value) (*StreamReader, error) {
	rt := ev.Isolate().Runtime()
	o, ok := stream.(*goja.Object)
	if !ok {
		return nil, errors.New("fetch: the body is not a ReadableStream")
	}
	get, ok := goja.AssertFunction(o.Get("getReader"))
	if !ok {
		return nil, errors.New("fetch: the body is not a ReadableStream (no getReader)")
	}
	r, err := get(o)
	if err != nil {
		return nil, err
	}
	return &StreamReader{ev: ev, reader: r.ToObject(rt)}, nil
}

// next reads one chunk: nil and io.EOF at the end.
func (s *StreamReader) next() ([]byte, error) {
	return jsrt.Call(s.ev, jsrt.CallOptions{MayWaitForever: true}, func(rt *goja.Runtime) (goja.Value, error) {
		read, _ := goja.AssertFunction(s.reader.Get("read"))
		return read(s.reader)
	}, func(rt *goja.Runtime, v goja.Value) ([]byte, error) {
		o, ok := v.(*goja.Object)
		if !ok {
			return nil, errors.New("fetch: the stream's reader returned no result object")
		}
		if o.Get("done").ToBoolean() {
			return nil, io.EOF
		}
		chunk := o.Get("value")
		if b, ok := s.ev.Isolate().Bytes(chunk); ok {
			return append([]byte(nil), b...), nil
		}
		if s, ok := chunk.Export().(string); ok {
			return []byte(s), nil
		}
		return nil, fmt.Errorf("fetch: a body stream produced %s; it must produce Uint8Array chunks", typeName(chunk))
	})
}

func typeName(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) {
		return "undefined"
	}
	if goja.IsNull(v) {
		return "null"
	}
	return fmt.Sprintf("a %s", v.ExportType())
}

// Read implements io.Reader.
func (s *StreamReader) Read(p []byte) (int, error) {
	for len(s.buf) == 0 {
		if s.err != nil {
			return 0, s.err
		}
		s.buf, s.err = s.next()
	}
	n := copy(p, s.buf)
	s.buf = s.buf[n:]
	return n, nil
}

// Close cancels the stream if it was not read to its end.
func (s *StreamReader) Close() error {
	s.closeOnce.Do(func() {
		if s.err == io.EOF {
			return
		}
		s.ev.Post(func(rt *goja.Runtime) {
			if cancel, ok := goja.AssertFunction(s.reader.Get("cancel")); ok {
				cancel(s.reader)
			}
		})
	})
	return nil
}

// pump writes the stream to w, flushing after each chunk.
func (s *StreamReader) pump(w http.ResponseWriter) error {
	flusher, _ := w.(http.Flusher)
	for {
		chunk, err := s.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := w.Write(chunk); err != nil {
			s.Close()
			return err
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }
