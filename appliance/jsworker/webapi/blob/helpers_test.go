package blob

import (
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/clone"
	"github.com/dwk/fleet/appliance/jsworker/webapi/encoding"
	"github.com/dwk/fleet/appliance/jsworker/webapi/events"
	"github.com/dwk/fleet/appliance/jsworker/webapi/streams"
)

// jsCase is JavaScript run as an async function body and the JSON it
// must return.
type jsCase struct {
	name, body, want string
}

func runCases(t *testing.T, iso *jsrt.Isolate, cases []jsCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := jsrttest.Eval(iso, tc.body)
			if err != nil {
				t.Fatalf("eval: %v", err)
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// newIsolate is an isolate with the extensions blob runs with in dwk and
// the test helpers.
func newIsolate(t testing.TB) *jsrt.Isolate {
	return jsrttest.New(t, events.Extension, encoding.Extension, clone.Extension, streams.Extension, Extension, testExtension)
}

// testExtension gives the tests internal (as internals), describe(e) (an
// error's "Name: message"), bytesOf(u8) (an array of numbers) and
// textOf(u8) (UTF-8).
var testExtension = jsrt.Extension{Name: "blobtest", JS: `
global.internals = internal;
global.describe = (e) => (e && typeof e === "object" && "message" in e ? e.name + ": " + e.message : e);
global.bytesOf = (u8) => Array.from(new Uint8Array(u8.buffer || u8, u8.byteOffset || 0, u8.byteLength));
global.textOf = (u8) => new TextDecoder().decode(u8);
`}
