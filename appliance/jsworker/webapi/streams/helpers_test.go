package streams

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/clone"
	"github.com/dwk/fleet/appliance/jsworker/webapi/encoding"
	"github.com/dwk/fleet/appliance/jsworker/webapi/events"
)

// jsCase is JavaScript run as an async function body and the JSON it
// must return.
type jsCase struct {
	name, body, want string
}

// runCases runs each case in iso.
func runCases(t *testing.T, iso *jsrt.Isolate, cases []jsCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := jsrttest.Eval(iso, tc.body)
			if err != nil {
				t.Fatalf("eval: %v", err)
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// newIsolate is an isolate with the extensions the streams use in dwk
// (events, encoding, clone) and the test helpers. Without the lang
// extension, Symbol.asyncIterator is the Symbol.for("Symbol.asyncIterator")
// that lang defines it as.
func newIsolate(t testing.TB) *jsrt.Isolate {
	return jsrttest.New(t, events.Extension, encoding.Extension, clone.Extension, Extension, testExtension)
}

// testExtension gives the tests helpers: collect(stream) reads a stream
// to its end into an array of chunks (byte chunks as arrays of numbers),
// errorOf(promise) is the "Name: message" a promise rejects with, a
// tick passes a turn of the event loop, and the go* natives are Go's own
// compressors and a Go body producer.
var testExtension = jsrt.Extension{
	Name:    "streamstest",
	Install: installTestNatives,
	JS: `
global.collect = async function collect(stream) {
  const r = stream.getReader();
  const out = [];
  for (;;) {
    const { value, done } = await r.read();
    if (done) return out;
    out.push(ArrayBuffer.isView(value) ? Array.from(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)) : value);
  }
};
global.describe = function describe(e) {
  if (e instanceof Error || (e && typeof e === "object" && "name" in e && "message" in e)) return e.name + ": " + e.message;
  return e;
};
global.errorOf = async function errorOf(p) {
  try {
    await p;
    return "resolved";
  } catch (e) {
    return describe(e);
  }
};
global.tick = () => new Promise((r) => setTimeout(r, 0));
global.goCompress = host.streamstest.compress;
global.goDecompress = host.streamstest.decompress;
global.goBody = host.streamstest.body;
global.internals = internal;
`,
}

func installTestNatives(iso *jsrt.Isolate, host *goja.Object) error {
	rt := iso.Runtime()
	o := rt.NewObject()
	// compress(format, bytes) → Uint8Array, by Go's compress/*.
	o.Set("compress", func(c goja.FunctionCall) goja.Value {
		in, _ := iso.Bytes(c.Argument(1))
		out, err := goCompress(c.Argument(0).String(), in)
		if err != nil {
			iso.Throw(err)
		}
		return iso.NewUint8Array(out)
	})
	// decompress(format, bytes) → Uint8Array, by Go's compress/*.
	o.Set("decompress", func(c goja.FunctionCall) goja.Value {
		in, _ := iso.Bytes(c.Argument(1))
		out, err := goDecompress(c.Argument(0).String(), in)
		if err != nil {
			iso.Throw(err)
		}
		return iso.NewUint8Array(out)
	})
	// body(chunks, failAt) → { pull, cancel, canceled() }: a Go producer
	// for pullStream that answers each pull from a goroutine with the
	// next of chunks (strings, sent as UTF-8), fails at index failAt
	// (when not negative), and records a cancel's reason.
	o.Set("body", func(c goja.FunctionCall) goja.Value {
		var chunks []string
		if err := rt.ExportTo(c.Argument(0), &chunks); err != nil {
			iso.Throw(err)
		}
		failAt := -1
		if v := c.Argument(1); !goja.IsUndefined(v) {
			failAt = int(v.ToInteger())
		}
		next := 0
		canceled := goja.Undefined()
		b := rt.NewObject()
		b.Set("pull", func(goja.FunctionCall) goja.Value {
			k := next
			next++
			return iso.Async(func(context.Context) (jsrt.Settle, error) {
				if k == failAt {
					return nil, errors.New("the body failed")
				}
				if k >= len(chunks) {
					return func(*goja.Runtime) (goja.Value, error) { return goja.Null(), nil }, nil
				}
				chunk := []byte(chunks[k])
				return func(*goja.Runtime) (goja.Value, error) { return iso.NewUint8Array(chunk), nil }, nil
			})
		})
		b.Set("cancel", func(c goja.FunctionCall) goja.Value {
			canceled = c.Argument(0)
			return goja.Undefined()
		})
		b.Set("canceled", func(goja.FunctionCall) goja.Value { return canceled })
		b.Set("pulls", func(goja.FunctionCall) goja.Value { return rt.ToValue(next) })
		return b
	})
	return host.Set("streamstest", o)
}

func goCompress(format string, in []byte) ([]byte, error) {
	var buf bytes.Buffer
	var w io.WriteCloser
	var err error
	switch format {
	case "gzip":
		w = gzip.NewWriter(&buf)
	case "deflate":
		w = zlib.NewWriter(&buf)
	default:
		w, err = flate.NewWriter(&buf, flate.BestCompression)
	}
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(in); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func goDecompress(format string, in []byte) ([]byte, error) {
	var r io.Reader
	var err error
	switch format {
	case "gzip":
		r, err = gzip.NewReader(bytes.NewReader(in))
	case "deflate":
		r, err = zlib.NewReader(bytes.NewReader(in))
	default:
		r = flate.NewReader(bytes.NewReader(in))
	}
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}
