package jsworker

import (
	"testing"

	"github.com/dop251/goja"
)

func TestRewriteRegExps(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`x(/[\p{L}\p{N}_-]+/u)`, `x(new RegExp("[\\p{L}\\p{N}_-]+", "u"))`},
		{`x(/(?<y>\d+)/)`, `x(new RegExp("(?\u003cy\u003e\\d+)", ""))`},
		{`x(/(?<=a)b/, /a/dg, 1 / 2 / 3)`, `x(/(?<=a)b/, new RegExp("a", "dg"), 1 / 2 / 3)`},
		{`x("\\p{L}", /plain/g)`, `x("\\p{L}", /plain/g)`},
	} {
		prg, err := goja.Parse("t.js", tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		got, _ := rewriteRegExps(tc.in, prg)
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}
