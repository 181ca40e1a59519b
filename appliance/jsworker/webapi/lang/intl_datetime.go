package lang

import (
	"fmt"
	"strconv"
	"time"

	"github.com/dop251/goja"
)

// dateFormat is a resolved Intl.DateTimeFormat: the en-US pattern its
// options select, as a list of fields and literals.
type dateFormat struct {
	zone      zone
	hourCycle string // h11, h12, h23, h24
	pattern   []part // typ is a field name, or "literal"; value is the field's width
}

// dateOptions are the components and styles the prelude resolved.
type dateOptions struct {
	weekday, era, year, month, day, dayPeriod string
	hour, minute, second, timeZoneName        string
	fractionalSecondDigits                    int
	dateStyle, timeStyle, hourCycle           string
}

func readDateOptions(o *goja.Object) dateOptions {
	str := func(name string) string {
		v := o.Get(name)
		if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
			return ""
		}
		return v.String()
	}
	d := dateOptions{
		weekday: str("weekday"), era: str("era"), year: str("year"), month: str("month"), day: str("day"),
		dayPeriod: str("dayPeriod"), hour: str("hour"), minute: str("minute"), second: str("second"),
		timeZoneName: str("timeZoneName"), dateStyle: str("dateStyle"), timeStyle: str("timeStyle"),
		hourCycle: str("hourCycle"),
	}
	if v := o.Get("fractionalSecondDigits"); v != nil && !goja.IsUndefined(v) {
		d.fractionalSecondDigits = int(v.ToInteger())
	}
	return d
}

func newDateFormat(z zone, o dateOptions) *dateFormat {
	f := &dateFormat{zone: z, hourCycle: o.hourCycle}
	if f.hourCycle == "" {
		f.hourCycle = "h12"
	}
	date := datePattern(o)
	clock := f.timePattern(o)
	switch {
	case len(date) > 0 && len(clock) > 0:
		sep := ", "
		if o.dateStyle == "full" || o.dateStyle == "long" {
			sep = " at "
		}
		f.pattern = append(append(date, part{"literal", sep}), clock...)
	case len(date) > 0:
		f.pattern = date
		if o.timeZoneName != "" {
			f.pattern = append(f.pattern, part{"literal", ", "}, part{"timeZoneName", o.timeZoneName})
		}
	default:
		f.pattern = clock
	}
	return f
}

func lit(s string) part { return part{"literal", s} }

// datePattern is the date half of the pattern.
func datePattern(o dateOptions) []part {
	switch o.dateStyle {
	case "full":
		return []part{{"weekday", "long"}, lit(", "), {"month", "long"}, lit(" "), {"day", "numeric"}, lit(", "), {"year", "numeric"}}
	case "long":
		return []part{{"month", "long"}, lit(" "), {"day", "numeric"}, lit(", "), {"year", "numeric"}}
	case "medium":
		return []part{{"month", "short"}, lit(" "), {"day", "numeric"}, lit(", "), {"year", "numeric"}}
	case "short":
		return []part{{"month", "numeric"}, lit("/"), {"day", "numeric"}, lit("/"), {"year", "2-digit"}}
	}
	if o.timeStyle != "" {
		return nil
	}
	var p []part
	textual := o.month == "long" || o.month == "short" || o.month == "narrow"
	switch {
	case textual:
		if o.weekday != "" {
			p = append(p, part{"weekday", o.weekday}, lit(", "))
		}
		p = append(p, part{"month", o.month})
		if o.day != "" {
			p = append(p, lit(" "), part{"day", o.day})
		}
		if o.year != "" {
			if o.day != "" {
				p = append(p, lit(", "))
			} else {
				p = append(p, lit(" "))
			}
			p = append(p, part{"year", o.year})
		}
	case o.month != "":
		if o.weekday != "" {
			p = append(p, part{"weekday", o.weekday}, lit(", "))
		}
		p = append(p, part{"month", o.month})
		if o.day != "" {
			p = append(p, lit("/"), part{"day", o.day})
		}
		if o.year != "" {
			p = append(p, lit("/"), part{"year", o.year})
		}
	default:
		if o.day != "" {
			p = append(p, part{"day", o.day})
		}
		if o.weekday != "" {
			if len(p) > 0 {
				p = append(p, lit(" "))
			}
			p = append(p, part{"weekday", o.weekday})
		}
		if o.year != "" {
			if len(p) > 0 {
				p = append(p, lit(", "))
			}
			p = append(p, part{"year", o.year})
		}
	}
	if o.era != "" {
		if len(p) > 0 {
			p = append(p, lit(" "))
		}
		p = append(p, part{"era", o.era})
	}
	return p
}

// timePattern is the time half of the pattern: en-US puts hour, minute
// and second (always two digits after the hour) before AM/PM, and the
// time zone name last.
func (f *dateFormat) timePattern(o dateOptions) []part {
	switch {
	case o.timeStyle != "":
		style := o.timeStyle
		o = dateOptions{hour: "numeric", minute: "2-digit", second: "2-digit"}
		switch style {
		case "full":
			o.timeZoneName = "long"
		case "long":
			o.timeZoneName = "short"
		case "short":
			o.second = ""
		}
	case o.dateStyle != "":
		return nil
	}
	h12 := f.hourCycle == "h11" || f.hourCycle == "h12"
	var p []part
	if o.hour != "" {
		w := o.hour
		if !h12 {
			w = "2-digit"
		}
		p = append(p, part{"hour", w})
	}
	if o.minute != "" {
		w := o.minute
		if o.hour != "" {
			w = "2-digit"
			p = append(p, lit(":"))
		}
		p = append(p, part{"minute", w})
	}
	if o.second != "" {
		w := o.second
		if o.hour != "" || o.minute != "" {
			w = "2-digit"
			p = append(p, lit(":"))
		}
		p = append(p, part{"second", w})
	}
	if o.fractionalSecondDigits > 0 {
		if len(p) > 0 {
			p = append(p, lit("."))
		}
		p = append(p, part{"fractionalSecond", itoa(o.fractionalSecondDigits)})
	}
	switch {
	case o.hour != "" && h12 && o.dayPeriod != "":
		p = append(p, lit(" "), part{"dayPeriod", o.dayPeriod})
	case o.hour != "" && h12:
		p = append(p, lit(" "), part{"dayPeriod", "ampm"})
	case o.hour == "" && o.dayPeriod != "":
		if len(p) > 0 {
			p = append(p, lit(" "))
		}
		p = append(p, part{"dayPeriod", o.dayPeriod})
	}
	if o.timeZoneName != "" && len(p) > 0 {
		p = append(p, lit(" "), part{"timeZoneName", o.timeZoneName})
	}
	return p
}

// format formats the time ms (milliseconds since the epoch).
func (f *dateFormat) format(ms int64) []part {
	t := time.UnixMilli(ms).In(f.zone.loc)
	out := make([]part, 0, len(f.pattern))
	for _, p := range f.pattern {
		if p.typ == "literal" {
			out = append(out, p)
			continue
		}
		out = append(out, part{p.typ, f.field(t, p.typ, p.value)})
	}
	return out
}

// field is one field of t in a width.
func (f *dateFormat) field(t time.Time, name, width string) string {
	switch name {
	case "weekday":
		return pickName(weekdaysLong, weekdaysShort, int(t.Weekday()), width)
	case "era":
		bc := t.Year() <= 0
		switch width {
		case "long":
			return map[bool]string{false: "Anno Domini", true: "Before Christ"}[bc]
		case "narrow":
			return map[bool]string{false: "A", true: "B"}[bc]
		}
		return map[bool]string{false: "AD", true: "BC"}[bc]
	case "year":
		y := t.Year()
		if y <= 0 {
			y = 1 - y
		}
		if width == "2-digit" {
			return fmt.Sprintf("%02d", y%100)
		}
		return strconv.Itoa(y)
	case "month":
		m := int(t.Month())
		switch width {
		case "numeric":
			return strconv.Itoa(m)
		case "2-digit":
			return fmt.Sprintf("%02d", m)
		}
		return pickName(monthsLong, monthsShort, m-1, width)
	case "day":
		return numeric(t.Day(), width)
	case "hour":
		h := t.Hour()
		switch f.hourCycle {
		case "h12":
			h %= 12
			if h == 0 {
				h = 12
			}
		case "h11":
			h %= 12
		case "h24":
			if h == 0 {
				h = 24
			}
		}
		return numeric(h, width)
	case "minute":
		return numeric(t.Minute(), width)
	case "second":
		return numeric(t.Second(), width)
	case "fractionalSecond":
		n, _ := strconv.Atoi(width)
		return fmt.Sprintf("%03d", t.Nanosecond()/1e6)[:n]
	case "dayPeriod":
		if width == "ampm" {
			if t.Hour() < 12 {
				return "AM"
			}
			return "PM"
		}
		return flexibleDayPeriod(t.Hour(), t.Minute(), width)
	case "timeZoneName":
		return zoneName(f.zone, t, width)
	}
	return ""
}

func numeric(n int, width string) string {
	if width == "2-digit" {
		return fmt.Sprintf("%02d", n%100)
	}
	return strconv.Itoa(n)
}

func pickName(long, short []string, i int, width string) string {
	switch width {
	case "long":
		return long[i]
	case "narrow":
		return long[i][:1]
	}
	return short[i]
}
