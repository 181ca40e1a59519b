// Package jsrttest runs JavaScript in real isolates for tests of the
// runtime and its extensions.
package jsrttest

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// Timeout bounds one Eval.
const Timeout = 20 * time.Second

// New returns an isolate with exts (after the core), closed when the test
// ends. Its console goes to the test log.
func New(t testing.TB, exts ...jsrt.Extension) *jsrt.Isolate {
	t.Helper()
	iso, err := jsrt.New(jsrt.Config{Name: t.Name(), Extensions: exts, Logger: Logger(t)})
	if err != nil {
		t.Fatalf("new isolate: %v", err)
	}
	t.Cleanup(iso.Close)
	return iso
}

// Eval runs body as the body of an async function in iso and returns the
// JSON of what it returns (undefined is "undefined"). A rejection is
// returned as the error.
func Eval(iso *jsrt.Isolate, body string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	ev := iso.NewEvent(ctx)
	defer ev.End()
	return jsrt.Call(ev, jsrt.CallOptions{}, func(rt *goja.Runtime) (goja.Value, error) {
		return rt.RunString("(async () => {\n" + body + "\n})()")
	}, func(rt *goja.Runtime, v goja.Value) (string, error) {
		if goja.IsUndefined(v) {
			return "undefined", nil
		}
		b, err := json.Marshal(v.Export())
		if err != nil {
			return v.String(), nil
		}
		return string(b), nil
	})
}

// MustEval is Eval that fails the test on an error.
func MustEval(t testing.TB, iso *jsrt.Isolate, body string) string {
	t.Helper()
	got, err := Eval(iso, body)
	if err != nil {
		t.Fatalf("eval: %v\nbody:\n%s", err, body)
	}
	return got
}

// Logger is a logger that writes to the test log.
func Logger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}

var _ io.Writer = testWriter{}
