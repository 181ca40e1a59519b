package lang

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// numberFormat is a resolved Intl.NumberFormat, formatting as en-US does.
type numberFormat struct {
	digitOptions
	style           string // decimal, percent, currency, unit
	currency        string
	currencyDisplay string // symbol, narrowSymbol, code, name
	currencySign    string // standard, accounting
	unit            string
	unitDisplay     string // short, narrow, long
	notation        string // standard, scientific, engineering, compact
	compactDisplay  string // short, long
	useGrouping     string // always, auto, min2, or "" for none
	signDisplay     string // auto, never, always, exceptZero, negative
}

// part is one piece of formatToParts.
type part struct{ typ, value string }

func joinParts(parts []part) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.value)
	}
	return b.String()
}

// newNumberFormat reads the options the prelude resolved.
func newNumberFormat(o *goja.Object) *numberFormat {
	str := func(name string) string {
		v := o.Get(name)
		if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
			return ""
		}
		return v.String()
	}
	num := func(name string) int {
		v := o.Get(name)
		if v == nil || goja.IsUndefined(v) {
			return 0
		}
		return int(v.ToInteger())
	}
	nf := &numberFormat{
		style:           str("style"),
		currency:        str("currency"),
		currencyDisplay: str("currencyDisplay"),
		currencySign:    str("currencySign"),
		unit:            str("unit"),
		unitDisplay:     str("unitDisplay"),
		notation:        str("notation"),
		compactDisplay:  str("compactDisplay"),
		useGrouping:     str("useGrouping"), // false is none
		signDisplay:     str("signDisplay"),
	}
	if nf.useGrouping == "false" {
		nf.useGrouping = ""
	}
	nf.minInt = num("minimumIntegerDigits")
	nf.minFrac = num("minimumFractionDigits")
	nf.maxFrac = num("maximumFractionDigits")
	nf.minSig = num("minimumSignificantDigits")
	nf.maxSig = num("maximumSignificantDigits")
	nf.roundingType = str("roundingType")
	nf.increment = int64(max(num("roundingIncrement"), 1))
	nf.mode = str("roundingMode")
	nf.stripIfInteger = str("trailingZeroDisplay") == "stripIfInteger"
	return nf
}

// format formats x: "NaN", "Infinity", "-Infinity", or a decimal string
// (a Number's String, a BigInt's, or a string of digits).
func (nf *numberFormat) format(x string) []part {
	neg := strings.HasPrefix(x, "-")
	var number []part
	var rounded fixed
	exponent, compact := 0, 0
	switch strings.TrimLeft(x, "+-") {
	case "NaN":
		number = []part{{"nan", "NaN"}}
		neg = false
		rounded = fixed{intPart: "0"}
	case "Infinity":
		number = []part{{"infinity", "∞"}}
		rounded = fixed{neg: neg, intPart: "1"}
	default:
		d, ok := parseDecimal(x)
		if !ok {
			number = []part{{"nan", "NaN"}}
			neg = false
			break
		}
		if nf.style == "percent" {
			d = d.shift(2)
		}
		switch nf.notation {
		case "compact":
			rounded, compact = nf.roundCompact(d)
		case "scientific", "engineering":
			rounded, exponent = nf.roundScientific(d)
		default:
			rounded = nf.round(d)
		}
		number = nf.digits(rounded)
		if nf.notation == "scientific" || nf.notation == "engineering" {
			number = append(number, part{"exponentSeparator", "E"})
			if exponent < 0 {
				number = append(number, part{"exponentMinusSign", "-"})
				exponent = -exponent
			}
			number = append(number, part{"exponentInteger", itoa(exponent)})
		}
		if compact > 0 {
			if nf.compactDisplay == "long" {
				number = append(number, part{"literal", " "}, part{"compact", compactLong[compact/3]})
			} else {
				number = append(number, part{"compact", compactShort[compact/3]})
			}
		}
	}
	one := compact == 0 && rounded.intPart == "1" && rounded.fracPart == "" && exponent == 0
	return nf.affix(number, nf.sign(neg, rounded), neg, one)
}

var (
	compactShort = []string{"", "K", "M", "B", "T"}
	compactLong  = []string{"", "thousand", "million", "billion", "trillion"}
)

func (nf *numberFormat) roundCompact(d decimal) (fixed, int) {
	exp := 0
	if m := d.magnitude(); m >= 3 {
		exp = min(m/3*3, 12)
	}
	for {
		f := nf.round(d.shift(-exp))
		if exp < 12 && len(strings.TrimLeft(f.intPart, "0")) > 3 {
			exp += 3
			continue
		}
		return f, exp
	}
}

func (nf *numberFormat) roundScientific(d decimal) (fixed, int) {
	step := 1
	if nf.notation == "engineering" {
		step = 3
	}
	exp := floorDiv(d.magnitude(), step) * step
	for {
		f := nf.round(d.shift(-exp))
		if !d.isZero() && len(strings.TrimLeft(f.intPart, "0")) > step {
			exp += step
			continue
		}
		return f, exp
	}
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// sign is the sign to show for a number whose rounded value is f.
func (nf *numberFormat) sign(neg bool, f fixed) string {
	zero := f.isZero()
	switch nf.signDisplay {
	case "never":
		return ""
	case "always":
		if neg {
			return "-"
		}
		return "+"
	case "exceptZero":
		switch {
		case zero:
			return ""
		case neg:
			return "-"
		}
		return "+"
	case "negative":
		if neg && !zero {
			return "-"
		}
		return ""
	}
	if neg {
		return "-"
	}
	return ""
}

// digits writes a rounded number's integer (grouped), decimal and
// fraction parts.
func (nf *numberFormat) digits(f fixed) []part {
	var out []part
	in := f.intPart
	group := false
	switch nf.useGrouping {
	case "always", "auto":
		group = len(in) > 3
	case "min2":
		group = len(in) > 4
	}
	if group {
		first := len(in) % 3
		if first == 0 {
			first = 3
		}
		out = append(out, part{"integer", in[:first]})
		for i := first; i < len(in); i += 3 {
			out = append(out, part{"group", ","}, part{"integer", in[i : i+3]})
		}
	} else {
		out = append(out, part{"integer", in})
	}
	if f.fracPart != "" {
		out = append(out, part{"decimal", "."}, part{"fraction", f.fracPart})
	}
	return out
}

// affix puts the sign, currency, percent sign or unit around a number.
func (nf *numberFormat) affix(number []part, sign string, neg, one bool) []part {
	var out []part
	signPart := func() {
		switch sign {
		case "-":
			out = append(out, part{"minusSign", "-"})
		case "+":
			out = append(out, part{"plusSign", "+"})
		}
	}
	switch nf.style {
	case "percent":
		signPart()
		out = append(out, number...)
		return append(out, part{"percentSign", "%"})
	case "currency":
		c := currency(nf.currency)
		if nf.currencyDisplay == "name" {
			signPart()
			out = append(out, number...)
			name := c.other
			if one {
				name = c.one
			}
			return append(out, part{"literal", " "}, part{"currency", name})
		}
		sym := c.symbol
		switch nf.currencyDisplay {
		case "code":
			sym = nf.currency
		case "narrowSymbol":
			sym = c.narrow
		}
		accounting := nf.currencySign == "accounting" && sign == "-"
		if accounting {
			out = append(out, part{"literal", "("})
		} else {
			signPart()
		}
		out = append(out, part{"currency", sym})
		if r, _ := utf8.DecodeLastRuneInString(sym); unicode.IsLetter(r) {
			out = append(out, part{"literal", "\u00a0"})
		}
		out = append(out, number...)
		if accounting {
			out = append(out, part{"literal", ")"})
		}
		return out
	case "unit":
		pattern := unitPattern(nf.unit, nf.unitDisplay, one)
		before, after, _ := strings.Cut(pattern, "{0}")
		signPart()
		if before != "" {
			out = append(out, part{"unit", strings.TrimRight(before, " ")})
			if strings.HasSuffix(before, " ") {
				out = append(out, part{"literal", " "})
			}
		}
		out = append(out, number...)
		if after != "" {
			if strings.HasPrefix(after, " ") {
				out = append(out, part{"literal", " "})
			}
			out = append(out, part{"unit", strings.TrimLeft(after, " ")})
		}
		return out
	}
	signPart()
	return append(out, number...)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}
