package events_test

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/events"
)

// exposeInternal makes the preludes' internal object a global for tests.
var exposeInternal = jsrt.Extension{Name: "expose", JS: "global.internal = internal;"}

// evalCase is one script and the JSON of what it returns.
type evalCase struct {
	name, body, want string
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

// logged is an isolate whose log the test reads.
type logged struct {
	iso *jsrt.Isolate
	mu  sync.Mutex
	buf bytes.Buffer
}

func newLogged(t *testing.T, exts ...jsrt.Extension) *logged {
	l := &logged{}
	log := slog.New(slog.NewTextHandler(lockedWriter{l}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	iso, err := jsrt.New(jsrt.Config{Name: t.Name(), Extensions: append([]jsrt.Extension{events.Extension, exposeInternal}, exts...), Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(iso.Close)
	l.iso = iso
	return l
}

func (l *logged) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

type lockedWriter struct{ l *logged }

func (w lockedWriter) Write(p []byte) (int, error) {
	w.l.mu.Lock()
	defer w.l.mu.Unlock()
	return w.l.buf.Write(p)
}

func TestGlobalsAreNotEnumerable(t *testing.T) {
	iso := jsrttest.New(t, events.Extension)
	got := jsrttest.MustEval(t, iso, `
		const names = ["DOMException", "Event", "EventTarget", "CustomEvent", "ErrorEvent", "MessageEvent",
			"CloseEvent", "PromiseRejectionEvent", "AbortController", "AbortSignal", "reportError"];
		return names.filter(n => typeof globalThis[n] !== "function" || Object.keys(globalThis).includes(n));`)
	if got != "[]" {
		t.Errorf("missing or enumerable globals: %s", got)
	}
}

func TestLogContains(t *testing.T) {
	// The helper itself: a console line reaches the log.
	l := newLogged(t)
	jsrttest.MustEval(t, l.iso, `console.error("marker")`)
	if !strings.Contains(l.text(), "marker") {
		t.Fatalf("log %q lacks the console line", l.text())
	}
}
