package node_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/encoding"
	"github.com/dwk/fleet/appliance/jsworker/webapi/events"
	"github.com/dwk/fleet/appliance/jsworker/webapi/lang"
	"github.com/dwk/fleet/appliance/jsworker/webapi/node"
	"github.com/dwk/fleet/appliance/jsworker/webapi/streams"
	"github.com/dwk/fleet/appliance/jsworker/webapi/url"
)

// expose puts the prelude's internal object on the global, for tests.
var expose = jsrt.Extension{Name: "expose", JS: "global.internal = internal;"}

// newIsolate returns an isolate with the extensions that come before node
// in the adapter and that node's modules use (Symbol.asyncIterator,
// AbortController, TextEncoder, URL, the Web streams), then node.
func newIsolate(t *testing.T) *jsrt.Isolate {
	t.Helper()
	return jsrttest.New(t, lang.Extension, events.Extension, encoding.Extension, url.Extension, streams.Extension, node.Extension, expose)
}

// evalCase is a function body to run and the JSON it must return.
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

// errorCase is a function body that must throw (or reject) an error of
// class name whose message contains message.
type errorCase struct {
	name, body, class, message string
}

func runErrorCases(t *testing.T, iso *jsrt.Isolate, cases []errorCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := jsrttest.Eval(iso, tc.body)
			var je *jsrt.Error
			if err == nil {
				t.Fatalf("no error\nbody:\n%s", tc.body)
			}
			if !errors.As(err, &je) {
				t.Fatalf("got %v, want a JavaScript %s", err, tc.class)
			}
			if je.Name != tc.class || !strings.Contains(je.Message, tc.message) {
				t.Errorf("got %s: %s\nwant %s containing %q", je.Name, je.Message, tc.class, tc.message)
			}
		})
	}
}

// mustEvalString runs body, which returns a string, and returns it.
func mustEvalString(t *testing.T, iso *jsrt.Isolate, body string) string {
	t.Helper()
	got := jsrttest.MustEval(t, iso, body)
	var s string
	if err := json.Unmarshal([]byte(got), &s); err != nil {
		t.Fatalf("the body returned %s, not a string", got)
	}
	return s
}

func itoa(n int) string { return strconv.Itoa(n) }

// mustEval is jsrttest.MustEval.
func mustEval(t *testing.T, iso *jsrt.Isolate, body string) string {
	t.Helper()
	return jsrttest.MustEval(t, iso, body)
}
