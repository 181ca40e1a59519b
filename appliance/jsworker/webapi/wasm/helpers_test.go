package wasm

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
)

// fixtures gives JavaScript fixture(name), the bytes of testdata/name.wasm
// as a Uint8Array, and withCustom(bytes, name, text), the bytes with a
// custom section appended.
var fixtures = jsrt.Extension{
	Name: "fixtures",
	Install: func(iso *jsrt.Isolate, host *goja.Object) error {
		rt := iso.Runtime()
		host.Set("fixture", func(c goja.FunctionCall) goja.Value {
			b, err := os.ReadFile(filepath.Join("testdata", c.Argument(0).String()+".wasm"))
			if err != nil {
				iso.Throw(err)
			}
			return iso.NewUint8Array(b)
		})
		host.Set("withCustom", func(c goja.FunctionCall) goja.Value {
			b, _ := iso.Bytes(c.Argument(0))
			return iso.NewUint8Array(withCustom(b, c.Argument(1).String(), c.Argument(2).String()))
		})
		_ = rt
		return nil
	},
	JS: "global.fixture = host.fixture; global.withCustom = host.withCustom;",
}

// withCustom returns b with a custom section name holding data appended.
func withCustom(b []byte, name, data string) []byte {
	body := &writer{}
	body.name(name)
	body.byte([]byte(data)...)
	w := &writer{b: append([]byte(nil), b...)}
	w.section(secCustom, body)
	return w.b
}

// newIsolate is an isolate with the extension and the fixtures.
func newIsolate(t testing.TB, exts ...jsrt.Extension) *jsrt.Isolate {
	t.Helper()
	if len(exts) == 0 {
		exts = []jsrt.Extension{Extension}
	}
	return jsrttest.New(t, append(exts, fixtures)...)
}

// evalCase is a script and the JSON it must return.
type evalCase struct {
	name, body, want string
}

// runCases evaluates each case in iso.
func runCases(t *testing.T, iso *jsrt.Isolate, cases []evalCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := jsrttest.Eval(iso, tc.body)
			if err != nil {
				t.Fatalf("eval: %v\nbody:\n%s", err, tc.body)
			}
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// runOne evaluates body in iso and returns its JSON.
func runOne(t *testing.T, iso *jsrt.Isolate, body string) string {
	t.Helper()
	return jsrttest.MustEval(t, iso, body)
}

// states are the states of the tests' isolates.
var states sync.Map // *jsrt.Isolate → *state

func init() {
	installHook = func(iso *jsrt.Isolate, s *state) { states.Store(iso, s) }
}

// stateOf is the extension's state of iso. Read it on the loop (iso.Do).
func stateOf(t *testing.T, iso *jsrt.Isolate) *state {
	t.Helper()
	v, ok := states.Load(iso)
	if !ok {
		t.Fatal("no state for the isolate")
	}
	return v.(*state)
}
