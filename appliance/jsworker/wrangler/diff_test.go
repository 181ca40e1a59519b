package wrangler

import (
	"fmt"
	"reflect"
)

// diff returns where got and want first differ, as a path and the two
// values, or "" when they are deeply equal. It keeps test failures short
// without an assertion library.
func diff(got, want any) string {
	return diffValue("", reflect.ValueOf(got), reflect.ValueOf(want))
}

func diffValue(path string, g, w reflect.Value) string {
	if !g.IsValid() || !w.IsValid() {
		if g.IsValid() != w.IsValid() {
			return fmt.Sprintf("%s: got %v, want %v", path, g, w)
		}
		return ""
	}
	if g.Type() != w.Type() {
		return fmt.Sprintf("%s: got type %s, want %s", path, g.Type(), w.Type())
	}
	switch g.Kind() {
	case reflect.Pointer, reflect.Interface:
		if g.IsNil() || w.IsNil() {
			if g.IsNil() != w.IsNil() {
				return fmt.Sprintf("%s: got %#v, want %#v", path, g, w)
			}
			return ""
		}
		return diffValue(path, g.Elem(), w.Elem())
	case reflect.Struct:
		for i := 0; i < g.NumField(); i++ {
			if d := diffValue(path+"."+g.Type().Field(i).Name, g.Field(i), w.Field(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice:
		if g.Len() != w.Len() {
			return fmt.Sprintf("%s: got %d elements %#v, want %d %#v", path, g.Len(), g, w.Len(), w)
		}
		for i := 0; i < g.Len(); i++ {
			if d := diffValue(fmt.Sprintf("%s[%d]", path, i), g.Index(i), w.Index(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if g.Len() != w.Len() {
			return fmt.Sprintf("%s: got %#v, want %#v", path, g, w)
		}
		for _, k := range w.MapKeys() {
			gv := g.MapIndex(k)
			if !gv.IsValid() {
				return fmt.Sprintf("%s: missing key %v", path, k)
			}
			if d := diffValue(fmt.Sprintf("%s[%v]", path, k), gv, w.MapIndex(k)); d != "" {
				return d
			}
		}
		return ""
	}
	if !leafEqual(g, w) {
		return fmt.Sprintf("%s: got %#v, want %#v", path, g, w)
	}
	return ""
}

// leafEqual compares values of the same basic kind, unexported struct
// fields included.
func leafEqual(g, w reflect.Value) bool {
	switch g.Kind() {
	case reflect.String:
		return g.String() == w.String()
	case reflect.Bool:
		return g.Bool() == w.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return g.Int() == w.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return g.Uint() == w.Uint()
	case reflect.Float32, reflect.Float64:
		return g.Float() == w.Float()
	}
	return reflect.DeepEqual(g.Interface(), w.Interface())
}
