package benchdocs

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Figure is one published number: its value in Unit, and Text, the way
// docs show it. Text carries the unit when the constructor picks it by
// scale (durations, sizes) or it is a ratio ("x"); counts, rates and fixed
// decimals are the number alone, and the doc names the unit.
type Figure struct {
	Value float64 `json:"value"`
	Unit  string  `json:"unit,omitempty"`
	Text  string  `json:"text"`
}

// Duration is a time, three significant digits in the largest unit that
// keeps it at or above 1: "4.68 µs", "813 µs", "1.58 ms", "2.06 s",
// "2.6 min". Value is in nanoseconds.
func Duration(d time.Duration) Figure {
	ns := float64(d)
	units := []struct {
		name string
		div  float64
	}{{"ns", 1}, {"µs", 1e3}, {"ms", 1e6}}
	for _, u := range units {
		// 999.5 and up would round to "1000": the next unit says "1.00".
		if math.Abs(ns/u.div) < 999.5 {
			return Figure{Value: ns, Unit: "ns", Text: sig3(ns/u.div) + " " + u.name}
		}
	}
	if math.Abs(ns/1e9) < 59.95 {
		return Figure{Value: ns, Unit: "ns", Text: sig3(ns/1e9) + " s"}
	}
	return Figure{Value: ns, Unit: "ns", Text: strconv.FormatFloat(ns/60e9, 'f', 1, 64) + " min"}
}

// Count is a whole number with thousands separators: "5,831".
func Count(n float64, unit string) Figure {
	return Figure{Value: n, Unit: unit, Text: thousands(math.Round(n))}
}

// Ratio is a ratio, two significant digits (none after the point from 10
// up): "0.26x", "5.7x", "16x".
func Ratio(r float64) Figure {
	decimals := 2
	switch a := math.Abs(r); {
	case a >= 9.95:
		decimals = 0
	case a >= 0.995:
		decimals = 1
	}
	return Figure{Value: r, Unit: "x", Text: strconv.FormatFloat(r, 'f', decimals, 64) + "x"}
}

// Fixed is a number with a fixed number of decimals: "0.000", "1.03".
func Fixed(v float64, decimals int, unit string) Figure {
	return Figure{Value: v, Unit: unit, Text: strconv.FormatFloat(v, 'f', decimals, 64)}
}

// Bytes is a size, three significant digits in binary units: "147 KiB",
// "1.41 GiB". Value is in bytes.
func Bytes(n float64) Figure {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	v, i := n, 0
	// From 999.5 on, sig3 would write "1000": the next unit says "0.98".
	for math.Abs(v) >= 999.5 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if i == 0 {
		return Figure{Value: n, Unit: "B", Text: thousands(n) + " B"}
	}
	return Figure{Value: n, Unit: "B", Text: sig3(v) + " " + units[i]}
}

// Text is a figure that is words, not a number: a seed, a mode, a command.
func Text(s string) Figure { return Figure{Text: s} }

// sig3 writes v with three significant digits (at least the integer part).
func sig3(v float64) string {
	switch a := math.Abs(v); {
	case a >= 99.95:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 9.995:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

// thousands writes a whole number with comma separators.
func thousands(v float64) string {
	s := strconv.FormatFloat(math.Abs(v), 'f', 0, 64)
	var b strings.Builder
	if v < 0 {
		b.WriteByte('-')
	}
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

var (
	ratioCellRE  = regexp.MustCompile(`^(-?[0-9]+(?:\.[0-9]+)?)x$`)
	numberCellRE = regexp.MustCompile(`^-?[0-9]+(?:\.([0-9]+))?$`)
)

// FromCell reads a table cell as a figure: a duration ("1.5757ms",
// "820 ms"), a ratio ("5.0x"), or a number ("47358", "0.254"); anything
// else is not a figure. Numbers keep the cell's decimals.
func FromCell(cell string) (Figure, bool) {
	c := strings.TrimSpace(cell)
	if m := ratioCellRE.FindStringSubmatch(c); m != nil {
		v, _ := strconv.ParseFloat(m[1], 64)
		return Ratio(v), true
	}
	if m := numberCellRE.FindStringSubmatch(c); m != nil {
		v, _ := strconv.ParseFloat(c, 64)
		if m[1] == "" {
			return Count(v, ""), true
		}
		return Fixed(v, len(m[1]), ""), true
	}
	if d, err := time.ParseDuration(strings.ReplaceAll(c, " ", "")); err == nil && c != "0" {
		return Duration(d), true
	}
	return Figure{}, false
}

// Key turns a label into a key segment: lower case, runs of anything but
// letters and digits become one "_". "central time/op" → "central_time_op".
func Key(label string) string {
	var b strings.Builder
	gap := false
	for _, r := range strings.ToLower(label) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if gap && b.Len() > 0 {
				b.WriteByte('_')
			}
			gap = false
			b.WriteRune(r)
			continue
		}
		gap = true
	}
	return b.String()
}

// TableFigures derives a figure from every cell of a table that reads as
// one (FromCell), keyed "<Key(row label)>.<Key(column header)>": the row
// label is the row's first cell. Cells that are not figures are skipped.
func TableFigures(header []string, rows [][]string) map[string]Figure {
	out := map[string]Figure{}
	for _, r := range rows {
		if len(r) == 0 {
			continue
		}
		row := Key(r[0])
		for j := 1; j < len(r) && j < len(header); j++ {
			if f, ok := FromCell(r[j]); ok {
				out[row+"."+Key(header[j])] = f
			}
		}
	}
	return out
}

// String is the figure's text, for logs.
func (f Figure) String() string { return fmt.Sprintf("%s (%g %s)", f.Text, f.Value, f.Unit) }
