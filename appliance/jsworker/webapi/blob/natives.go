package blob

import (
	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/webapi/encoding"
)

// natives are the Go functions the prelude calls (host.blob).
type natives struct {
	iso *jsrt.Isolate
	rt  *goja.Runtime
}

func install(iso *jsrt.Isolate, host *goja.Object) error {
	n := &natives{iso: iso, rt: iso.Runtime()}
	o := n.rt.NewObject()
	for name, fn := range map[string]func(goja.FunctionCall) goja.Value{
		"join":          n.join,
		"text":          n.text,
		"usv":           n.usv,
		"parseForm":     n.parseForm,
		"serializeForm": n.serializeForm,
	} {
		if err := o.Set(name, fn); err != nil {
			return err
		}
	}
	return host.Set("blob", o)
}

func (n *natives) values(v goja.Value, what string) []goja.Value {
	var vals []goja.Value
	if err := n.rt.ExportTo(v, &vals); err != nil {
		n.iso.Throw(jsrt.Errorf("TypeError", "%s must be an array", what))
	}
	return vals
}

func (n *natives) bytes(v goja.Value, what string) []byte {
	b, ok := n.iso.Bytes(v)
	if !ok {
		n.iso.Throw(jsrt.Errorf("TypeError", "%s must be an ArrayBuffer or an ArrayBufferView", what))
	}
	return b
}

// join(parts, native) → Uint8Array: the parts (strings as UTF-8,
// Uint8Arrays) one after another in new memory.
func (n *natives) join(c goja.FunctionCall) goja.Value {
	vals := n.values(c.Argument(0), "The parts")
	parts := make([][]byte, len(vals))
	strs := make([]bool, len(vals))
	for i, v := range vals {
		if s, ok := v.(goja.String); ok {
			parts[i], strs[i] = []byte(s.String()), true
			continue
		}
		parts[i] = n.bytes(v, "A part")
	}
	return n.iso.NewUint8Array(joinParts(parts, strs, c.Argument(1).ToBoolean()))
}

// text(bytes) → string: UTF-8 decode (a leading BOM dropped).
func (n *natives) text(c goja.FunctionCall) goja.Value {
	b := n.bytes(c.Argument(0), "The bytes")
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		b = b[3:]
	}
	return n.rt.ToValue(encoding.DecodeUTF8(b))
}

// usv(string) → string: each lone surrogate as U+FFFD.
func (n *natives) usv(c goja.FunctionCall) goja.Value {
	return n.rt.ToValue(c.Argument(0).String())
}

// parseForm(bytes, contentType) → [[name, string] or [name, Uint8Array,
// filename, type], ...].
func (n *natives) parseForm(c goja.FunctionCall) goja.Value {
	entries, err := parseForm(n.bytes(c.Argument(0), "The body"), c.Argument(1).String())
	if err != nil {
		n.iso.Throw(err)
	}
	out := make([]any, len(entries))
	for i, e := range entries {
		if e.isFile {
			out[i] = n.rt.NewArray(e.name, n.iso.NewUint8Array(e.data), e.filename, e.ctype)
		} else {
			out[i] = n.rt.NewArray(e.name, e.value)
		}
	}
	return n.rt.NewArray(out...)
}

// serializeForm(entries) → { contentType, body }, entries as parseForm
// returns them.
func (n *natives) serializeForm(c goja.FunctionCall) goja.Value {
	vals := n.values(c.Argument(0), "The entries")
	entries := make([]formEntry, len(vals))
	for i, v := range vals {
		f := n.values(v, "An entry")
		if len(f) < 2 {
			n.iso.Throw(jsrt.Errorf("TypeError", "An entry needs a name and a value"))
		}
		e := formEntry{name: f[0].String()}
		if len(f) < 4 {
			e.value = f[1].String()
		} else {
			e.isFile = true
			e.data = n.bytes(f[1], "A file's bytes")
			e.filename = f[2].String()
			e.ctype = f[3].String()
		}
		entries[i] = e
	}
	boundary := newBoundary()
	o := n.rt.NewObject()
	o.Set("contentType", "multipart/form-data; boundary="+boundary)
	o.Set("body", n.iso.NewUint8Array(serializeForm(entries, boundary)))
	return o
}
