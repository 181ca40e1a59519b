package wrangler

import (
	"fmt"
	"math"
	"strings"
)

// obj is one object of the tree being read. Its reader asks for each key
// it knows (read, ignore or refuse); done then reports every key nobody
// asked for as unknown, with the nearest known key as a suggestion. So a
// key is never dropped without a word.
type obj struct {
	r    *report
	path string
	m    map[string]any
	// base, when set for a key, is the path of the object the key's value
	// came from: an environment's view of the file holds keys inherited
	// from the top level.
	base  map[string]string
	known []string
}

// object returns v as an obj, or reports that it must be an object.
func (r *report) object(path string, v any) *obj {
	m, ok := v.(map[string]any)
	if !ok {
		r.errorf(path, "must be an object, got %s", typeName(v))
		return nil
	}
	return &obj{r: r, path: path, m: m}
}

// at is the path of key k.
func (o *obj) at(k string) string {
	if b, ok := o.base[k]; ok {
		return join(b, k)
	}
	return join(o.path, k)
}

// get marks k as known and returns its value.
func (o *obj) get(k string) (any, bool) {
	o.known = append(o.known, k)
	v, ok := o.m[k]
	return v, ok
}

// has reports whether k is set, without marking it known.
func (o *obj) has(k string) bool {
	_, ok := o.m[k]
	return ok
}

func (o *obj) typeError(k, want string, v any) {
	o.r.errorf(o.at(k), "%s", typeMessage(want, v))
}

// typeMessage says what a value must be and what it is.
func typeMessage(want string, v any) string {
	msg := fmt.Sprintf("must be %s, got %s", want, typeName(v))
	if d, ok := v.(tomlDate); ok && strings.Contains(want, "string") {
		msg += fmt.Sprintf(": write it in quotes, \"%s\"", d)
	}
	return msg
}

// str reads an optional string.
func (o *obj) str(k string) (string, bool) {
	v, ok := o.get(k)
	if !ok {
		return "", false
	}
	s, isStr := v.(string)
	if !isStr {
		o.typeError(k, "a string", v)
		return "", false
	}
	return s, true
}

// requiredStr reads a string that must be set and not empty; why says
// what it is needed for.
func (o *obj) requiredStr(k, why string) string {
	s, ok := o.str(k)
	if (!ok && !o.has(k)) || (ok && s == "") {
		o.r.errorf(o.at(k), "is required: %s", why)
	}
	return s
}

// nonEmptyStr reads an optional string that, when set, must not be empty.
func (o *obj) nonEmptyStr(k string) string {
	s, ok := o.str(k)
	if ok && s == "" {
		o.r.errorf(o.at(k), "must not be empty: remove the key or give it a value")
	}
	return s
}

// boolean reads an optional boolean.
func (o *obj) boolean(k string) (bool, bool) {
	v, ok := o.get(k)
	if !ok {
		return false, false
	}
	b, isBool := v.(bool)
	if !isBool {
		o.typeError(k, "a boolean (true or false)", v)
		return false, false
	}
	return b, true
}

// integer reads an optional whole number between min and max.
func (o *obj) integer(k string, min, max int) (int, bool) {
	v, ok := o.get(k)
	if !ok {
		return 0, false
	}
	f, isNum := v.(float64)
	if !isNum {
		o.typeError(k, "a number", v)
		return 0, false
	}
	if f != math.Trunc(f) || f < float64(min) || f > float64(max) {
		o.r.errorf(o.at(k), "must be a whole number from %d to %d, got %v", min, max, f)
		return 0, false
	}
	return int(f), true
}

// strs reads an optional array of strings.
func (o *obj) strs(k string) ([]string, bool) {
	v, ok := o.get(k)
	if !ok {
		return nil, false
	}
	return o.r.strings(o.at(k), v)
}

// strings checks that v is an array of strings.
func (r *report) strings(path string, v any) ([]string, bool) {
	a, ok := v.([]any)
	if !ok {
		r.errorf(path, "%s", typeMessage("an array of strings", v))
		return nil, false
	}
	out := make([]string, 0, len(a))
	good := true
	for i, e := range a {
		s, isStr := e.(string)
		if !isStr {
			r.errorf(index(path, i), "%s", typeMessage("a string", e))
			good = false
			continue
		}
		out = append(out, s)
	}
	return out, good
}

// strMap reads an optional object whose values are all strings.
func (o *obj) strMap(k string) (map[string]string, bool) {
	v, ok := o.get(k)
	if !ok {
		return nil, false
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		o.typeError(k, "an object of strings", v)
		return nil, false
	}
	out := make(map[string]string, len(m))
	for _, name := range sortedKeys(m) {
		s, isStr := m[name].(string)
		if !isStr {
			o.r.errorf(join(o.at(k), name), "%s", typeMessage("a string", m[name]))
			continue
		}
		out[name] = s
	}
	return out, true
}

// objects reads an optional array of objects and calls each with every
// element that is one.
func (o *obj) objects(k string, each func(i int, e *obj)) {
	v, ok := o.get(k)
	if !ok {
		return
	}
	a, isArr := v.([]any)
	if !isArr {
		o.typeError(k, "an array of objects", v)
		return
	}
	for i, e := range a {
		if eo := o.r.object(index(o.at(k), i), e); eo != nil {
			each(i, eo)
			eo.done()
		}
	}
}

// child reads an optional nested object; the caller calls done on it.
func (o *obj) child(k string) *obj {
	v, ok := o.get(k)
	if !ok {
		return nil
	}
	return o.r.object(o.at(k), v)
}

// ignore accepts k with a warning that dwk ignores it, and why.
func (o *obj) ignore(k, why string) {
	if _, ok := o.get(k); ok {
		o.r.warnf(o.at(k), "ignored by dwk: %s", why)
	}
}

// refuse rejects k with an error that dwk does not support it, and why.
func (o *obj) refuse(k, why string) {
	if _, ok := o.get(k); ok {
		o.r.errorf(o.at(k), "not supported by dwk: %s", why)
	}
}

// done reports every key of the object that no reader asked for.
func (o *obj) done() {
	known := map[string]bool{}
	for _, k := range o.known {
		known[k] = true
	}
	for _, k := range sortedKeys(o.m) {
		if known[k] {
			continue
		}
		msg := fmt.Sprintf("unknown key %q", k)
		if s := suggest(k, o.known); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		} else if len(o.known) > 0 && len(o.known) <= 12 {
			msg += " (known keys: " + strings.Join(dedupe(o.known), ", ") + ")"
		}
		parent := o.path
		if b, ok := o.base[k]; ok {
			parent = b
		}
		o.r.errorf(parent, "%s", msg)
	}
}

func dedupe(keys []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}
