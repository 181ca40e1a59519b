package webcrypto

import (
	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// params is a normalized algorithm as the prelude hands it to Go: the
// members of every Web Crypto algorithm dictionary, of which one algorithm
// uses a few. Byte members are views of JavaScript memory, valid during the
// native call that read them: copy what outlives it.
type params struct {
	name           string
	hash           string // the normalized hash's name
	namedCurve     string
	length         int // -1 when absent
	modulusLength  int
	publicExponent []byte
	saltLength     int
	iv             []byte
	additionalData []byte
	tagLength      int // -1 when absent
	counter        []byte
	label          []byte
	salt           []byte
	info           []byte
	iterations     int
}

// readParams reads a normalized algorithm dictionary. Call it on the loop.
func readParams(iso *jsrt.Isolate, v goja.Value) (*params, error) {
	o, ok := v.(*goja.Object)
	if !ok {
		return nil, jsrt.Errorf(typeError, "the algorithm must be an object")
	}
	p := &params{
		name:          stringMember(o, "name"),
		namedCurve:    stringMember(o, "namedCurve"),
		length:        intMember(o, "length", -1),
		modulusLength: intMember(o, "modulusLength", 0),
		saltLength:    intMember(o, "saltLength", 0),
		tagLength:     intMember(o, "tagLength", -1),
		iterations:    intMember(o, "iterations", 0),
	}
	if h, ok := o.Get("hash").(*goja.Object); ok {
		p.hash = stringMember(h, "name")
	}
	for _, m := range []struct {
		name string
		dst  *[]byte
	}{
		{"publicExponent", &p.publicExponent},
		{"iv", &p.iv},
		{"additionalData", &p.additionalData},
		{"counter", &p.counter},
		{"label", &p.label},
		{"salt", &p.salt},
		{"info", &p.info},
	} {
		mv := o.Get(m.name)
		if absent(mv) {
			continue
		}
		b, ok := iso.Bytes(mv)
		if !ok {
			return nil, jsrt.Errorf(typeError, "the algorithm's %q must be an ArrayBuffer or an ArrayBuffer view", m.name)
		}
		*m.dst = b
	}
	return p, nil
}

func absent(v goja.Value) bool {
	return v == nil || goja.IsUndefined(v) || goja.IsNull(v)
}

func stringMember(o *goja.Object, name string) string {
	v := o.Get(name)
	if absent(v) {
		return ""
	}
	return v.String()
}

func intMember(o *goja.Object, name string, def int) int {
	v := o.Get(name)
	if absent(v) {
		return def
	}
	return int(v.ToInteger())
}
