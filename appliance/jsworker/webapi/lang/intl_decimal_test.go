package lang

import "testing"

func TestParseDecimal(t *testing.T) {
	for _, tc := range []struct {
		in     string
		digits string
		point  int
		neg    bool
		ok     bool
	}{
		{"1234.5", "12345", 4, false, true},
		{"-0.00120", "12", -2, true, true},
		{"1e21", "1", 22, false, true},
		{"1.5e-7", "15", -6, false, true},
		{"0", "", 0, false, true},
		{"-0", "", 0, true, true},
		{" +42 ", "42", 2, false, true},
		{"0x10", "", 0, false, false},
		{"NaN", "", 0, false, false},
		{"1e", "", 0, false, false},
	} {
		d, ok := parseDecimal(tc.in)
		if ok != tc.ok || ok && (d.digits != tc.digits || d.point != tc.point || d.neg != tc.neg) {
			t.Errorf("parseDecimal(%q) = %+v, %v; want %q %d %v %v", tc.in, d, ok, tc.digits, tc.point, tc.neg, tc.ok)
		}
	}
}

func TestRound(t *testing.T) {
	frac := func(min, max int) digitOptions {
		return digitOptions{minInt: 1, minFrac: min, maxFrac: max, roundingType: "fractionDigits", increment: 1, mode: "halfExpand"}
	}
	sig := func(min, max int) digitOptions {
		return digitOptions{minInt: 1, minSig: min, maxSig: max, roundingType: "significantDigits", increment: 1, mode: "halfExpand"}
	}
	for _, tc := range []struct {
		in   string
		o    digitOptions
		want string
	}{
		{"1.005", frac(0, 2), "1.01"},
		{"1.5", frac(2, 2), "1.50"},
		{"0.0004", frac(0, 3), "0"},
		{"999.9996", frac(0, 3), "1000"},
		{"123456", sig(1, 3), "123000"},
		{"0.00123456", sig(1, 3), "0.00123"},
		{"5", sig(3, 21), "5.00"},
		{"0", sig(3, 21), "0.00"},
		{"99.96", sig(1, 3), "100"},
	} {
		d, _ := parseDecimal(tc.in)
		f := tc.o.round(d)
		got := f.intPart
		if f.fracPart != "" {
			got += "." + f.fracPart
		}
		if got != tc.want {
			t.Errorf("round(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
