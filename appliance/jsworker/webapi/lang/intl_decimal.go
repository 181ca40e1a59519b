package lang

import (
	"math/big"
	"strings"
)

// decimal is an exact decimal number: 0.digits × 10^point, so
// digits[:point] is the integer part (point may be negative or past the
// digits). Intl formats numbers from their shortest decimal form, as ICU
// does, so 1.005 rounds to 1.01.
type decimal struct {
	neg    bool
	digits string // no leading or trailing zeros; "" is zero
	point  int
}

// parseDecimal reads a JavaScript number's string form, a BigInt's, or a
// decimal string: [+-]digits[.digits][e[+-]digits]. ok is false for
// anything else (NaN and Infinity included).
func parseDecimal(s string) (d decimal, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return decimal{}, true
	}
	switch s[0] {
	case '-':
		d.neg = true
		s = s[1:]
	case '+':
		s = s[1:]
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	intPart, fracPart, _ := strings.Cut(mant, ".")
	if intPart == "" && fracPart == "" || !allDigits(intPart) || !allDigits(fracPart) {
		return decimal{}, false
	}
	e := 0
	if hasExp {
		sign := 1
		switch {
		case strings.HasPrefix(exp, "-"):
			sign, exp = -1, exp[1:]
		case strings.HasPrefix(exp, "+"):
			exp = exp[1:]
		}
		if exp == "" || !allDigits(exp) || len(exp) > 6 {
			return decimal{}, false
		}
		for _, c := range exp {
			e = e*10 + int(c-'0')
		}
		e *= sign
	}
	all := intPart + fracPart
	point := len(intPart) + e
	trimmed := strings.TrimLeft(all, "0")
	point -= len(all) - len(trimmed)
	d.digits = strings.TrimRight(trimmed, "0")
	d.point = point
	if d.digits == "" {
		d.point = 0
	}
	return d, true
}

func allDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func (d decimal) isZero() bool { return d.digits == "" }

// magnitude is the exponent of the leading digit (0 for zero).
func (d decimal) magnitude() int {
	if d.isZero() {
		return 0
	}
	return d.point - 1
}

// shift multiplies by 10^n.
func (d decimal) shift(n int) decimal {
	if !d.isZero() {
		d.point += n
	}
	return d
}

// roundTo rounds d to a multiple of inc × 10^exp by mode (the
// ECMA-402 rounding modes) and returns the result as a count of 10^exp
// units, in decimal digits.
func (d decimal) roundTo(exp int, inc int64, mode string) string {
	if inc != 1 {
		return d.roundToIncrement(exp, inc, mode)
	}
	// d's digits[:k] are the units; the rest decides the rounding.
	k := d.point - exp
	var q string
	cmp := 0 // the remainder against half a unit
	switch {
	case d.isZero():
		return "0"
	case k >= len(d.digits):
		return d.digits + strings.Repeat("0", k-len(d.digits))
	case k < 0:
		q, cmp = "0", -1
	case k == 0:
		q, cmp = "0", halfCompare(d.digits)
	default:
		q, cmp = d.digits[:k], halfCompare(d.digits[k:])
	}
	odd := (q[len(q)-1]-'0')%2 == 1
	if roundUp(mode, d.neg, odd, cmp) {
		q = incrementDigits(q)
	}
	return q
}

// halfCompare compares the fraction 0.rest (no trailing zeros, not empty)
// with one half.
func halfCompare(rest string) int {
	switch {
	case rest[0] > '5' || rest[0] == '5' && len(rest) > 1:
		return 1
	case rest[0] == '5':
		return 0
	}
	return -1
}

// incrementDigits adds one to a decimal string.
func incrementDigits(q string) string {
	b := []byte(q)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < '9' {
			b[i]++
			return string(b)
		}
		b[i] = '0'
	}
	return "1" + string(b)
}

// roundToIncrement is roundTo for an increment other than one.
func (d decimal) roundToIncrement(exp int, inc int64, mode string) string {
	lowest := d.point - len(d.digits)
	s := min(lowest, exp)
	v := new(big.Int)
	if !d.isZero() {
		v.SetString(d.digits, 10)
		v.Mul(v, pow10(lowest-s))
	}
	unit := new(big.Int).Mul(big.NewInt(inc), pow10(exp-s))
	q, r := new(big.Int).QuoRem(v, unit, new(big.Int))
	if r.Sign() != 0 && roundUp(mode, d.neg, q.Bit(0) == 1, new(big.Int).Lsh(r, 1).Cmp(unit)) {
		q.Add(q, big.NewInt(1))
	}
	return q.Mul(q, big.NewInt(inc)).String()
}

// roundUp decides whether a magnitude whose quotient is odd or even and
// whose nonzero remainder compares cmp with one half rounds away from
// zero.
func roundUp(mode string, neg, odd bool, cmp int) bool {
	switch mode {
	case "ceil":
		return !neg
	case "floor":
		return neg
	case "expand":
		return true
	case "trunc":
		return false
	case "halfCeil":
		return cmp > 0 || cmp == 0 && !neg
	case "halfFloor":
		return cmp > 0 || cmp == 0 && neg
	case "halfTrunc":
		return cmp > 0
	case "halfEven":
		return cmp > 0 || cmp == 0 && odd
	}
	return cmp >= 0 // halfExpand
}

func pow10(n int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// fixed is a rounded number as digit strings, before grouping.
type fixed struct {
	neg       bool
	intPart   string // at least one digit
	fracPart  string
	magnitude int // the exponent of the rounding unit (-len(fracPart) or more)
}

func (f fixed) isZero() bool {
	return strings.Trim(f.intPart, "0") == "" && strings.Trim(f.fracPart, "0") == ""
}

// fixedFrom writes q (decimal digits) units of 10^exp with max(0, -exp)
// fraction digits.
func fixedFrom(neg bool, s string, exp int) fixed {
	if exp >= 0 {
		if s != "0" {
			s += strings.Repeat("0", exp)
		}
		return fixed{neg: neg, intPart: s, magnitude: exp}
	}
	frac := -exp
	if len(s) <= frac {
		s = strings.Repeat("0", frac-len(s)+1) + s
	}
	return fixed{neg: neg, intPart: s[:len(s)-frac], fracPart: s[len(s)-frac:], magnitude: exp}
}

// digitOptions are the resolved digit options of ECMA-402's
// SetNumberFormatDigitOptions.
type digitOptions struct {
	minInt           int
	minFrac, maxFrac int
	minSig, maxSig   int
	roundingType     string // fractionDigits, significantDigits, morePrecision, lessPrecision
	increment        int64
	mode             string
	stripIfInteger   bool
}

// round is FormatNumericToString's rounding: by fraction digits, by
// significant digits, or whichever of the two is more (less) precise.
func (o digitOptions) round(d decimal) fixed {
	var f fixed
	switch o.roundingType {
	case "significantDigits":
		f = o.roundSig(d)
	case "morePrecision", "lessPrecision":
		s, fr := o.roundSig(d), o.roundFrac(d)
		sigFirst := s.magnitude <= fr.magnitude
		if o.roundingType == "lessPrecision" {
			sigFirst = !sigFirst
		}
		if sigFirst {
			f = s
		} else {
			f = fr
		}
	default:
		f = o.roundFrac(d)
	}
	if o.stripIfInteger && strings.Trim(f.fracPart, "0") == "" {
		f.fracPart = ""
	}
	if len(f.intPart) < o.minInt {
		f.intPart = strings.Repeat("0", o.minInt-len(f.intPart)) + f.intPart
	}
	return f
}

func (o digitOptions) roundFrac(d decimal) fixed {
	f := fixedFrom(d.neg, d.roundTo(-o.maxFrac, o.increment, o.mode), -o.maxFrac)
	for len(f.fracPart) > o.minFrac && strings.HasSuffix(f.fracPart, "0") {
		f.fracPart = f.fracPart[:len(f.fracPart)-1]
	}
	return f
}

func (o digitOptions) roundSig(d decimal) fixed {
	exp := d.magnitude() - o.maxSig + 1
	q := d.roundTo(exp, 1, o.mode)
	f := fixedFrom(d.neg, q, exp)
	if exp > 0 {
		return f
	}
	// Keep at least minSig significant digits.
	for len(f.fracPart) > 0 && strings.HasSuffix(f.fracPart, "0") && (sigDigits(f) > o.minSig || f.isZero()) {
		f.fracPart = f.fracPart[:len(f.fracPart)-1]
	}
	if f.isZero() && o.minSig > 1 && len(f.fracPart) < o.minSig-1 {
		f.fracPart += strings.Repeat("0", o.minSig-1-len(f.fracPart))
	}
	return f
}

// sigDigits counts the significant digits f shows.
func sigDigits(f fixed) int {
	return len(strings.TrimLeft(f.intPart+f.fracPart, "0"))
}
