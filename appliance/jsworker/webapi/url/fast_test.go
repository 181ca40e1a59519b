package url

import "testing"

// TestFastComponentsAgreesWithTheParser: whatever the fast path accepts,
// the WHATWG parser returns the same components for; the rest it leaves
// to the parser.
func TestFastComponentsAgreesWithTheParser(t *testing.T) {
	for _, tc := range []struct {
		in   string
		fast bool
	}{
		{"http://example.com/", true},
		{"https://example.com:8443/a/b?c=d&e=%20f#frag", true},
		{"http://127.0.0.1:8787/counter/x/increment?by=2", false}, // IPv4: the parser's
		{"http://localhost:8080/api/rooms/r1/ws", true},
		{"http://example.com:80/", false},
		{"https://example.com:443/", false},
		{"HTTP://example.com/", false},
		{"http://Example.com/", false},
		{"http://example.com", false},
		{"http://example.com/a/../b", false},
		{"http://example.com/a/./b", false},
		{"http://example.com/a%2e/b", false},
		{"http://example.com/a b", false},
		{"http://user@example.com/", false},
		{"http://example.com/?", false},
		{"http://example.com/#", false},
		{"http://example.com/a?b=\"c\"", false},
		{"http://xn--nxasmq6b.com/", false},
		{"http://example.com:08/", false},
		{"http://example.com:99999/", false},
		{"http://example.com:65535/", true},
		{"ftp://example.com/", false},
		{"http://example.com/~user/a.b-c_d!$&'()*+,;=:@", true},
	} {
		got, ok := fastComponents(tc.in)
		if ok != tc.fast {
			t.Errorf("%q: fast path %v, want %v", tc.in, ok, tc.fast)
		}
		if !ok {
			continue
		}
		u, pok := parse(tc.in, nil)
		if !pok {
			t.Errorf("%q: the fast path took a URL the parser refuses", tc.in)
			continue
		}
		if want := components(u); got != want {
			t.Errorf("%q: fast %q, parser %q", tc.in, got, want)
		}
	}
}
