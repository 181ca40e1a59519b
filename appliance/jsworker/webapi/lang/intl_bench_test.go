package lang

import (
	"fmt"
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
)

// BenchmarkIntl measures the locale methods apps call in loops.
func BenchmarkIntl(b *testing.B) {
	for _, op := range []struct{ name, setup, op string }{
		{"numberToLocaleString", `let x = 1234.5;`, `(x++).toLocaleString()`},
		{"numberFormat", `const nf = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }); let x = 1234.5;`, `nf.format(x++)`},
		{"numberToLocaleStringOptions", `let x = 1234.5;`, `(x++).toLocaleString("en-US", { maximumFractionDigits: 1 })`},
		{"dateToLocaleString", `const d = new Date(0);`, `d.toLocaleString()`},
		{"dateTimeFormat", `const f = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "America/New_York" }); const d = new Date(0);`, `f.format(d)`},
		{"collatorCompare", `const c = new Intl.Collator().compare;`, `c("apple", "Apricot")`},
		{"newNumberFormat", ``, `new Intl.NumberFormat("en-US", { style: "percent" })`},
	} {
		b.Run(op.name, func(b *testing.B) {
			iso := jsrttest.New(b, Extension)
			body := fmt.Sprintf("%s\nfor (let i = 0; i < %d; i++) %s;", op.setup, b.N, op.op)
			b.ResetTimer()
			if _, err := jsrttest.Eval(iso, body); err != nil {
				b.Fatal(err)
			}
		})
	}
}
