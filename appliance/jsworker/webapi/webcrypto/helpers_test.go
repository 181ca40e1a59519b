package webcrypto

import (
	_ "embed"
	"encoding/json"
	"testing"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/events"
)

// nodeFixtures is what testdata/node-fixtures.mjs made with Node.js's Web
// Crypto.
//
//go:embed testdata/node.json
var nodeFixtures string

// testHelpers are globals the tests' JavaScript uses: F (the Node.js
// fixtures), hex and toHex, utf8 (ASCII only), b64url and toB64url, and
// errorOf, which
// awaits a promise and returns the name of its rejection (prefixed with
// "wrong class: " when the error is not a DOMException or TypeError of
// that name).
var testHelpers = jsrt.Extension{
	Name: "webcrypto-test-helpers",
	Install: func(iso *jsrt.Isolate, host *goja.Object) error {
		return host.Set("fixtures", nodeFixtures)
	},
	JS: `
global.F = JSON.parse(host.fixtures);
global.hex = (s) => { const b = new Uint8Array(s.length / 2); for (let i = 0; i < b.length; i++) b[i] = parseInt(s.substr(2 * i, 2), 16); return b; };
global.toHex = (buf) => Array.from(buf instanceof ArrayBuffer ? new Uint8Array(buf) : new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), (x) => x.toString(16).padStart(2, "0")).join("");
global.utf8 = (s) => { const b = new Uint8Array(s.length); for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i); return b; };
global.b64url = (s) => {
  const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const out = []; let acc = 0, bits = 0;
  for (const c of s) { acc = (acc << 6) | abc.indexOf(c); bits += 6; if (bits >= 8) { bits -= 8; out.push((acc >> bits) & 0xff); } }
  return new Uint8Array(out);
};
global.toB64url = (buf) => {
  const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const b = buf instanceof ArrayBuffer ? new Uint8Array(buf) : buf;
  let out = "", acc = 0, bits = 0;
  for (const x of b) { acc = (acc << 8) | x; bits += 8; while (bits >= 6) { bits -= 6; out += abc[(acc >> bits) & 63]; } }
  if (bits > 0) out += abc[(acc << (6 - bits)) & 63];
  return out;
};
global.errorOf = async (p) => {
  try { await p; } catch (e) {
    const cls = e.name === "TypeError" ? TypeError : DOMException;
    return e instanceof cls ? e.name : "wrong class: " + e.name + ": " + e.message;
  }
  return "no error";
};
`,
}

// newIsolate is an isolate with the extension, the events extension for
// DOMException, and the tests' helpers.
func newIsolate(t testing.TB) *jsrt.Isolate {
	t.Helper()
	return jsrttest.New(t, events.Extension, testHelpers, Extension)
}

// evalCase is one JavaScript body and the JSON it must return.
type evalCase struct {
	name string
	body string
	want string
}

// runCases runs each case in iso and compares the JSON it returns.
func runCases(t *testing.T, iso *jsrt.Isolate, cases []evalCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := jsrttest.MustEval(t, iso, tc.body)
			if got != tc.want {
				t.Errorf("got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// mustJSON is the JSON of v, for building want strings.
func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// evalString runs body, which must return a string, and returns it.
func evalString(t testing.TB, iso *jsrt.Isolate, body string) string {
	t.Helper()
	got := jsrttest.MustEval(t, iso, body)
	var s string
	if err := json.Unmarshal([]byte(got), &s); err != nil {
		t.Fatalf("the body returned %s, not a string", got)
	}
	return s
}
