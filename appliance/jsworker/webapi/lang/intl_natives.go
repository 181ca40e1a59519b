package lang

import (
	"sort"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// installIntl puts the natives of Intl on o.
func (n *natives) installIntl(o *goja.Object) {
	for name, fn := range map[string]func(goja.FunctionCall) goja.Value{
		"numberFormat":        n.numberFormat,
		"formatNumber":        n.formatNumber,
		"formatNumberToParts": n.formatNumberToParts,
		"isUnit":              func(c goja.FunctionCall) goja.Value { return n.rt.ToValue(isUnit(c.Argument(0).String())) },
		"currencyDigits":      func(c goja.FunctionCall) goja.Value { return n.rt.ToValue(currency(c.Argument(0).String()).digits) },
		"resolveTimeZone":     n.resolveTimeZone,
		"dateFormat":          n.dateFormat,
		"formatDate":          n.formatDate,
		"formatDateToParts":   n.formatDateToParts,
		"collator":            n.collator,
		"compare":             n.compare,
		"segment":             n.segment,
		"supportedValues":     n.supportedValues,
	} {
		o.Set(name, fn)
	}
}

// partsValue turns parts into [{type, value}].
func (n *natives) partsValue(parts []part) goja.Value {
	items := make([]any, len(parts))
	for i, p := range parts {
		o := n.rt.NewObject()
		o.Set("type", p.typ)
		o.Set("value", p.value)
		items[i] = o
	}
	return n.rt.NewArray(items...)
}

// numberFormat(resolvedOptions) returns the handle of a formatter.
func (n *natives) numberFormat(c goja.FunctionCall) goja.Value {
	return n.rt.ToValue(newNumberFormat(c.Argument(0).ToObject(n.rt)))
}

func (n *natives) numberHandle(v goja.Value) *numberFormat {
	nf, ok := v.Export().(*numberFormat)
	if !ok {
		n.iso.Throw(jsrt.Errorf("TypeError", "not an Intl.NumberFormat"))
	}
	return nf
}

// formatNumber(handle, x) formats x, a Number's or BigInt's string form.
func (n *natives) formatNumber(c goja.FunctionCall) goja.Value {
	return n.rt.ToValue(joinParts(n.numberHandle(c.Argument(0)).format(c.Argument(1).String())))
}

func (n *natives) formatNumberToParts(c goja.FunctionCall) goja.Value {
	return n.partsValue(n.numberHandle(c.Argument(0)).format(c.Argument(1).String()))
}

// resolveTimeZone(name) returns the name Intl reports for a time zone, or
// null when there is no such zone.
func (n *natives) resolveTimeZone(c goja.FunctionCall) goja.Value {
	z, ok := lookupZone(c.Argument(0).String())
	if !ok {
		return goja.Null()
	}
	return n.rt.ToValue(z.name)
}

// dateFormat(resolvedOptions) returns the handle of a formatter; the
// options carry a timeZone resolveTimeZone accepted.
func (n *natives) dateFormat(c goja.FunctionCall) goja.Value {
	o := c.Argument(0).ToObject(n.rt)
	z, ok := lookupZone(o.Get("timeZone").String())
	if !ok {
		n.iso.Throw(jsrt.Errorf("RangeError", "Invalid time zone specified: %s", o.Get("timeZone").String()))
	}
	return n.rt.ToValue(newDateFormat(z, readDateOptions(o)))
}

func (n *natives) dateHandle(v goja.Value) *dateFormat {
	df, ok := v.Export().(*dateFormat)
	if !ok {
		n.iso.Throw(jsrt.Errorf("TypeError", "not an Intl.DateTimeFormat"))
	}
	return df
}

// formatDate(handle, ms) formats a time value the prelude checked.
func (n *natives) formatDate(c goja.FunctionCall) goja.Value {
	return n.rt.ToValue(joinParts(n.dateHandle(c.Argument(0)).format(c.Argument(1).ToInteger())))
}

func (n *natives) formatDateToParts(c goja.FunctionCall) goja.Value {
	return n.partsValue(n.dateHandle(c.Argument(0)).format(c.Argument(1).ToInteger()))
}

// collator(sensitivity, numeric, ignorePunctuation, caseFirst) returns the
// handle of a collator.
func (n *natives) collator(c goja.FunctionCall) goja.Value {
	return n.rt.ToValue(newCollator(c.Argument(0).String(), c.Argument(1).ToBoolean(), c.Argument(2).ToBoolean(), c.Argument(3).String()))
}

// compare(handle, a, b) orders two strings.
func (n *natives) compare(c goja.FunctionCall) goja.Value {
	col, ok := c.Argument(0).Export().(*collator)
	if !ok {
		n.iso.Throw(jsrt.Errorf("TypeError", "not an Intl.Collator"))
	}
	return n.rt.ToValue(col.compare(c.Argument(1).String(), c.Argument(2).String()))
}

// segment(granularity, string) returns {bounds, wordLike}: the UTF-16
// offsets where segments start (and the length), and for words whether
// each is word-like.
func (n *natives) segment(c goja.FunctionCall) goja.Value {
	t := textOf(stringArg(c.Argument(1)))
	var idx []int
	var like []bool
	switch c.Argument(0).String() {
	case "word":
		idx, like = words(t)
	case "sentence":
		idx = sentences(t)
	default:
		idx = graphemes(t)
	}
	bounds := make([]any, len(idx))
	for i, k := range idx {
		bounds[i] = t.at[k]
	}
	o := n.rt.NewObject()
	o.Set("bounds", n.rt.NewArray(bounds...))
	if like != nil {
		w := make([]any, len(like))
		for i, b := range like {
			w[i] = b
		}
		o.Set("wordLike", n.rt.NewArray(w...))
	}
	return o
}

// supportedValues(key) lists the time zones, currencies or units this
// package knows.
func (n *natives) supportedValues(c goja.FunctionCall) goja.Value {
	var list []string
	switch c.Argument(0).String() {
	case "timeZone":
		list = append(list, canonicalZones...)
	case "currency":
		for code := range currencies {
			list = append(list, code)
		}
	case "unit":
		for u := range units {
			list = append(list, u)
		}
	}
	sort.Strings(list)
	items := make([]any, len(list))
	for i, s := range list {
		items[i] = s
	}
	return n.rt.NewArray(items...)
}
