package streams

import (
	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// natives are the Go functions the prelude calls (host.streams): the
// byte work that is slow in JavaScript.
type natives struct {
	iso *jsrt.Isolate
	rt  *goja.Runtime
}

func install(iso *jsrt.Isolate, host *goja.Object) error {
	n := &natives{iso: iso, rt: iso.Runtime()}
	o := n.rt.NewObject()
	for name, fn := range map[string]func(goja.FunctionCall) goja.Value{
		"utf8Encode": n.utf8Encode,
		"concat":     n.concat,
		"concatText": n.concatText,
		"newDecoder": n.newDecoder,
		"decode":     n.decode,
		"newCodec":   n.newCodec,
		"codecWrite": n.codecWrite,
		"codecEnd":   n.codecEnd,
		"codecClose": n.codecClose,
	} {
		if err := o.Set(name, fn); err != nil {
			return err
		}
	}
	return host.Set("streams", o)
}

// bytesOf is the bytes of a string (as UTF-8), an ArrayBuffer or a view.
func (n *natives) bytesOf(v goja.Value) ([]byte, bool) {
	if s, ok := v.(goja.String); ok {
		return []byte(s.String()), true
	}
	return n.iso.Bytes(v)
}

// utf8Encode(string) → Uint8Array, for when the encoding extension is
// not there.
func (n *natives) utf8Encode(c goja.FunctionCall) goja.Value {
	return n.iso.NewUint8Array([]byte(c.Argument(0).String()))
}

// chunks reads an array of chunks (strings, ArrayBuffers, views) as
// byte slices and their total length.
func (n *natives) chunks(v goja.Value) ([][]byte, int) {
	var vals []goja.Value
	if err := n.rt.ExportTo(v, &vals); err != nil {
		n.iso.Throw(jsrt.Errorf("TypeError", "concat needs an array of chunks"))
	}
	parts := make([][]byte, len(vals))
	total := 0
	for k, x := range vals {
		b, ok := n.bytesOf(x)
		if !ok {
			n.iso.Throw(jsrt.Errorf("TypeError", "This ReadableStream did not return bytes."))
		}
		parts[k] = b
		total += len(b)
	}
	return parts, total
}

func join(parts [][]byte, total int) []byte {
	out := make([]byte, 0, total)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// concat(chunks) → Uint8Array: the chunks' bytes, one after another, in
// a new buffer.
func (n *natives) concat(c goja.FunctionCall) goja.Value {
	return n.iso.NewUint8Array(join(n.chunks(c.Argument(0))))
}

// concatText(chunks) → string: the chunks' bytes decoded as UTF-8.
func (n *natives) concatText(c goja.FunctionCall) goja.Value {
	parts, total := n.chunks(c.Argument(0))
	if len(parts) == 1 {
		return n.rt.ToValue(decodeUTF8(parts[0]))
	}
	return n.rt.ToValue(decodeUTF8(join(parts, total)))
}

// newDecoder(fatal, ignoreBOM) → a streaming UTF-8 decoder's handle.
func (n *natives) newDecoder(c goja.FunctionCall) goja.Value {
	return n.rt.ToValue(newUTF8Decoder(c.Argument(0).ToBoolean(), c.Argument(1).ToBoolean()))
}

// decode(decoder, bytes, flush) → string.
func (n *natives) decode(c goja.FunctionCall) goja.Value {
	d, ok := c.Argument(0).Export().(*utf8Decoder)
	if !ok {
		n.iso.Throw(jsrt.Errorf("TypeError", "decode needs a decoder"))
	}
	var b []byte
	if v := c.Argument(1); !goja.IsUndefined(v) {
		if b, ok = n.iso.Bytes(v); !ok {
			n.iso.Throw(jsrt.Errorf("TypeError", "The chunk to decode must be an ArrayBuffer or an ArrayBufferView"))
		}
	}
	s, err := d.decode(b, c.Argument(2).ToBoolean())
	if err != nil {
		n.iso.Throw(jsrt.Errorf("TypeError", "%s", err))
	}
	return n.rt.ToValue(s)
}

// newCodec(format, decompress) → a codec's handle.
func (n *natives) newCodec(c goja.FunctionCall) goja.Value {
	cd, err := newCodec(c.Argument(0).String(), c.Argument(1).ToBoolean())
	if err != nil {
		n.iso.Throw(err)
	}
	return n.rt.ToValue(&codecHandle{cd})
}

// codecHandle boxes a codec so that JavaScript holds one pointer type.
type codecHandle struct{ codec }

func (n *natives) handle(v goja.Value) codec {
	h, ok := v.Export().(*codecHandle)
	if !ok {
		n.iso.Throw(jsrt.Errorf("TypeError", "not a codec handle"))
	}
	return h.codec
}

// output is a codec's output as a Uint8Array, or null when it has none.
func (n *natives) output(out []byte, err error) goja.Value {
	if err != nil {
		n.iso.Throw(err)
	}
	if len(out) == 0 {
		return goja.Null()
	}
	return n.iso.NewUint8Array(out)
}

// codecWrite(codec, chunk) → Uint8Array or null.
func (n *natives) codecWrite(c goja.FunctionCall) goja.Value {
	cd := n.handle(c.Argument(0))
	b, ok := n.bytesOf(c.Argument(1))
	if !ok {
		n.iso.Throw(jsrt.Errorf("TypeError", "The chunk must be an ArrayBuffer, an ArrayBufferView or a string"))
	}
	return n.output(cd.write(b))
}

// codecEnd(codec) → Uint8Array or null: the rest of the output.
func (n *natives) codecEnd(c goja.FunctionCall) goja.Value {
	return n.output(n.handle(c.Argument(0)).end())
}

// codecClose(codec) drops the codec (the stream was canceled).
func (n *natives) codecClose(c goja.FunctionCall) goja.Value {
	n.handle(c.Argument(0)).close()
	return goja.Undefined()
}
