package clone

import (
	"math"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// plainChecker tells whether JSON.stringify says all of a value, so that
// its JSON is its serialization: finite numbers other than -0, strings
// without lone surrogates, booleans, null, and arrays (dense, with no
// other properties) and plain objects (prototype Object.prototype or
// null, no key starting with "$") of those, each reached once. It runs in
// Go because walking the value in JavaScript costs four times as much.
type plainChecker struct {
	objectProto, arrayProto *goja.Object
	seen                    map[*goja.Object]struct{}
}

func (p *plainChecker) plain(v goja.Value) bool {
	switch x := v.(type) {
	case nil:
		return false
	case goja.String:
		return !hasLoneSurrogate(x)
	case *goja.Object:
		return p.object(x)
	}
	switch e := v.Export().(type) {
	case nil:
		return goja.IsNull(v)
	case bool:
		return true
	case int64:
		return true
	case float64:
		return !math.IsNaN(e) && !math.IsInf(e, 0) && !(e == 0 && math.Signbit(e))
	}
	return false
}

func (p *plainChecker) object(o *goja.Object) bool {
	if _, dup := p.seen[o]; dup {
		return false
	}
	p.seen[o] = struct{}{}
	proto := o.Prototype()
	switch o.ClassName() {
	case "Array":
		if proto != p.arrayProto {
			return false
		}
		n := o.Get("length").ToInteger()
		keys := o.Keys()
		if int64(len(keys)) != n {
			return false
		}
		for k, key := range keys {
			if key != strconv.Itoa(k) || !p.plain(o.Get(key)) {
				return false
			}
		}
		return true
	case "Object":
		if proto != nil && proto != p.objectProto {
			return false
		}
		for _, key := range o.Keys() {
			if strings.HasPrefix(key, "$") || !p.plain(o.Get(key)) {
				return false
			}
		}
		return true
	}
	return false
}

// hasLoneSurrogate reports whether s has a UTF-16 surrogate without its
// pair.
func hasLoneSurrogate(s goja.String) bool {
	n := s.Length()
	for k := 0; k < n; k++ {
		c := s.CharAt(k)
		if c < 0xD800 || c > 0xDFFF {
			continue
		}
		if c <= 0xDBFF && k+1 < n {
			if d := s.CharAt(k + 1); d >= 0xDC00 && d <= 0xDFFF {
				k++
				continue
			}
		}
		return true
	}
	return false
}
