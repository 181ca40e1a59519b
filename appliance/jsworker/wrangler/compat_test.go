package wrangler

import "testing"

func TestCompatibilityFlags(t *testing.T) {
	tests := []struct {
		flags                  []string
		node, asyncLocal, v2On bool
	}{
		{nil, false, false, false},
		{[]string{"nodejs_compat"}, true, true, false},
		{[]string{"nodejs_compat_v2"}, true, true, true},
		{[]string{"nodejs_als"}, false, true, false},
		{[]string{"streams_enable_constructors"}, false, false, false},
	}
	for _, tt := range tests {
		p := &Project{CompatibilityFlags: tt.flags}
		if got := p.NodeCompat(); got != tt.node {
			t.Errorf("%q: NodeCompat() = %t, want %t", tt.flags, got, tt.node)
		}
		if got := p.AsyncLocalStorage(); got != tt.asyncLocal {
			t.Errorf("%q: AsyncLocalStorage() = %t, want %t", tt.flags, got, tt.asyncLocal)
		}
		if got := p.HasFlag("nodejs_compat_v2"); got != tt.v2On {
			t.Errorf("%q: HasFlag(nodejs_compat_v2) = %t, want %t", tt.flags, got, tt.v2On)
		}
	}
}
