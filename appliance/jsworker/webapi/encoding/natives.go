package encoding

import (
	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// install puts the natives on host.encoding.
func install(iso *jsrt.Isolate, host *goja.Object) error {
	rt := iso.Runtime()
	n := rt.NewObject()
	natives := map[string]func(goja.FunctionCall) goja.Value{
		// encode(string) → Uint8Array: UTF-8, lone surrogates as U+FFFD.
		"encode": func(c goja.FunctionCall) goja.Value {
			return iso.NewUint8Array(utf8Encode(c.Argument(0).String()))
		},
		// encodeInto(string, Uint8Array) → {read, written}.
		"encodeInto": func(c goja.FunctionCall) goja.Value {
			dst := bytesArg(iso, c.Argument(1), "The destination")
			read, written := encodeInto(c.Argument(0).String(), dst)
			o := rt.NewObject()
			o.Set("read", read)
			o.Set("written", written)
			return o
		},
		// lookup(label) → the encoding's name, or null for an unknown or
		// the replacement encoding.
		"lookup": func(c goja.FunctionCall) goja.Value {
			name, _, err := lookupEncoding(c.Argument(0).String())
			if err != nil {
				return goja.Null()
			}
			return rt.ToValue(name)
		},
		// newDecoder(label, fatal, ignoreBOM) → a decoder handle.
		"newDecoder": func(c goja.FunctionCall) goja.Value {
			d, err := newDecoder(c.Argument(0).String(), c.Argument(1).ToBoolean(), c.Argument(2).ToBoolean())
			if err != nil {
				iso.Throw(jsrt.Errorf("RangeError", "%v", err))
			}
			return rt.ToValue(d)
		},
		// decode(handle, input, stream) → string; a TypeError for
		// malformed input in fatal mode.
		"decode": func(c goja.FunctionCall) goja.Value {
			d, ok := c.Argument(0).Export().(*decoder)
			if !ok {
				iso.Throw(jsrt.Errorf("TypeError", "Illegal invocation: not a TextDecoder"))
			}
			var b []byte
			if in := c.Argument(1); !goja.IsUndefined(in) {
				b = bytesArg(iso, in, "The input of TextDecoder.decode")
			}
			s, ok := d.decode(b, c.Argument(2).ToBoolean())
			if !ok {
				iso.Throw(jsrt.Errorf("TypeError", "The encoded data was not valid for encoding %s", d.name))
			}
			return rt.ToValue(s)
		},
		// btoa(string) → string, or null when a code point is above U+00FF.
		"btoa": func(c goja.FunctionCall) goja.Value {
			b, ok := latin1Bytes(c.Argument(0).String())
			if !ok {
				return goja.Null()
			}
			return rt.ToValue(base64Encode(b, false))
		},
		// atob(string) → string, or null for input that is not base64.
		"atob": func(c goja.FunctionCall) goja.Value {
			b, ok := forgivingBase64Decode(c.Argument(0).String())
			if !ok {
				return goja.Null()
			}
			return rt.ToValue(latin1String(b))
		},
		"utf8Decode": func(c goja.FunctionCall) goja.Value {
			b := bytesArg(iso, c.Argument(0), "The input")
			if c.Argument(1).ToBoolean() && len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
				b = b[3:]
			}
			var d utf8Decoder
			out, _ := d.decode(nil, b, true, false)
			return rt.ToValue(string(out))
		},
		"base64Encode": func(c goja.FunctionCall) goja.Value {
			return rt.ToValue(base64Encode(bytesArg(iso, c.Argument(0), "The input"), c.Argument(1).ToBoolean()))
		},
		"base64Decode": func(c goja.FunctionCall) goja.Value {
			s := c.Argument(0).String()
			if c.Argument(1).ToBoolean() {
				return iso.NewUint8Array(lenientBase64Decode(s))
			}
			b, ok := forgivingBase64Decode(s)
			if !ok {
				return goja.Null()
			}
			return iso.NewUint8Array(b)
		},
		"hexEncode": func(c goja.FunctionCall) goja.Value {
			return rt.ToValue(hexEncode(bytesArg(iso, c.Argument(0), "The input")))
		},
		"hexDecode": func(c goja.FunctionCall) goja.Value {
			return iso.NewUint8Array(hexDecode(c.Argument(0).String()))
		},
		"latin1Encode": func(c goja.FunctionCall) goja.Value {
			s := jsString(c.Argument(0))
			b := make([]byte, s.Length())
			for k := range b {
				b[k] = byte(s.CharAt(k))
			}
			return iso.NewUint8Array(b)
		},
		"latin1Decode": func(c goja.FunctionCall) goja.Value {
			return rt.ToValue(latin1String(bytesArg(iso, c.Argument(0), "The input")))
		},
		"utf16leEncode": func(c goja.FunctionCall) goja.Value {
			s := jsString(c.Argument(0))
			b := make([]byte, 2*s.Length())
			for k := 0; k < s.Length(); k++ {
				u := s.CharAt(k)
				b[2*k], b[2*k+1] = byte(u), byte(u>>8)
			}
			return iso.NewUint8Array(b)
		},
		"utf16leDecode": func(c goja.FunctionCall) goja.Value {
			b := bytesArg(iso, c.Argument(0), "The input")
			units := make([]uint16, len(b)/2)
			for k := range units {
				units[k] = uint16(b[2*k]) | uint16(b[2*k+1])<<8
			}
			return goja.StringFromUTF16(units)
		},
	}
	for name, fn := range natives {
		if err := n.Set(name, fn); err != nil {
			return err
		}
	}
	return host.Set("encoding", n)
}

// bytesArg is the memory of an ArrayBuffer or view argument; anything
// else is a TypeError naming what.
func bytesArg(iso *jsrt.Isolate, v goja.Value, what string) []byte {
	b, ok := iso.Bytes(v)
	if !ok {
		iso.Throw(jsrt.Errorf("TypeError", "%s must be an ArrayBuffer, a typed array or a DataView", what))
	}
	return b
}

// jsString is v as a JavaScript string, code units intact.
func jsString(v goja.Value) goja.String {
	if s, ok := v.(goja.String); ok {
		return s
	}
	s, _ := v.ToString().(goja.String)
	return s
}
