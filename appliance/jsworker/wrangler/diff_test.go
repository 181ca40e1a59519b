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
				return fmt.Sprintf("%s: got %#v, want %#v", path, g.Interface(), w.Interface())
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
			return fmt.Sprintf("%s: got %d elements %#v, want %d %#v", path, g.Len(), g.Interface(), w.Len(), w.Interface())
		}
		for i := 0; i < g.Len(); i++ {
			if d := diffValue(fmt.Sprintf("%s[%d]", path, i), g.Index(i), w.Index(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if g.Len() != w.Len() {
			return fmt.Sprintf("%s: got %#v, want %#v", path, g.Interface(), w.Interface())
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
	if !reflect.DeepEqual(g.Interface(), w.Interface()) {
		return fmt.Sprintf("%s: got %#v, want %#v", path, g.Interface(), w.Interface())
	}
	return ""
}
