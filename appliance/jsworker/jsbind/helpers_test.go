package jsbind_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsbind"
	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/blob"
	"github.com/dwk/fleet/appliance/jsworker/webapi/clone"
	"github.com/dwk/fleet/appliance/jsworker/webapi/encoding"
	"github.com/dwk/fleet/appliance/jsworker/webapi/events"
	"github.com/dwk/fleet/appliance/jsworker/webapi/fetch"
	"github.com/dwk/fleet/appliance/jsworker/webapi/streams"
	"github.com/dwk/fleet/appliance/jsworker/webapi/url"
)

// newIsolate is an isolate with the extensions a worker's bindings use,
// in the adapter's order.
func newIsolate(t *testing.T) *jsrt.Isolate {
	t.Helper()
	return jsrttest.New(t, events.Extension, encoding.Extension, url.Extension, clone.Extension,
		streams.Extension, blob.Extension, fetch.Extension, jsbind.Extension)
}

// setGlobal sets the global name to what mk makes on the loop: a binding,
// as env would hold it.
func setGlobal(t *testing.T, iso *jsrt.Isolate, name string, mk func() goja.Value) {
	t.Helper()
	err := iso.Do(context.Background(), func(rt *goja.Runtime) error { return rt.Set(name, mk()) })
	if err != nil {
		t.Fatalf("set %s: %v", name, err)
	}
}

// evalCase is one table case: JavaScript that returns a value, and the
// JSON of that value, or the start of the error it rejects with.
type evalCase struct {
	name    string
	js      string
	want    string
	wantErr string
}

// run runs the cases in order, in one isolate: later cases may see what
// earlier ones stored.
func run(t *testing.T, iso *jsrt.Isolate, cases []evalCase) {
	t.Helper()
	for _, tc := range cases {
		got, err := jsrttest.Eval(iso, tc.js)
		switch {
		case tc.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: got %s, %v; want an error with %q", tc.name, got, err, tc.wantErr)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case got != tc.want:
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}
