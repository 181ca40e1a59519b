package htmlrewriter_test

import (
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/htmlrewriter"
)

// exposeInternal makes the preludes' internal object a global for tests.
var exposeInternal = jsrt.Extension{Name: "expose", JS: "global.internal = internal;"}

// evalCase is a script body and the JSON of what it returns.
type evalCase struct {
	name, body, want string
}

// newIsolate is an isolate with the rewriter and no streams or fetch.
func newIsolate(t *testing.T) *jsrt.Isolate {
	t.Helper()
	return jsrttest.New(t, htmlrewriter.Extension, exposeInternal)
}

func runCases(t *testing.T, iso *jsrt.Isolate, cases []evalCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := jsrttest.Eval(iso, tc.body)
			if err != nil {
				t.Fatalf("eval: %v\nbody:\n%s", err, tc.body)
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
