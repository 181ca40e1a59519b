package needtool

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how a test would end instead of
// ending it. Methods it does not override are not used by policy.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper()                        {}
func (r *recorder) Fatalf(format string, a ...any) { r.fatal = fmt.Sprintf(format, a...) }
func (r *recorder) Skipf(format string, a ...any)  { r.skip = fmt.Sprintf(format, a...) }

func TestPolicy(t *testing.T) {
	why := errors.New(`exec: "terraform": executable file not found in $PATH`)
	for _, tc := range []struct {
		name      string
		ci        bool
		wantFatal bool
	}{
		{"ci fails", true, true},
		{"elsewhere skips", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{}
			policy{ci: tc.ci}.missing(r, "terraform", "https://developer.hashicorp.com/terraform/install", why)
			got, other := r.skip, r.fatal
			if tc.wantFatal {
				got, other = r.fatal, r.skip
			}
			if other != "" {
				t.Errorf("ended both ways: fatal %q, skip %q", r.fatal, r.skip)
			}
			for _, want := range []string{"terraform is not installed", "install it", "https://developer.hashicorp.com/terraform/install", why.Error()} {
				if !strings.Contains(got, want) {
					t.Errorf("message %q does not say %q", got, want)
				}
			}
			if tc.ci && !strings.Contains(got, "CI=true") {
				t.Errorf("CI message %q does not say why it fails", got)
			}
		})
	}
}

func TestParseCI(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want bool
	}{
		{"", false}, {"true", true}, {"1", true}, {"TRUE", true}, {"false", false}, {"0", false}, {"yes", false},
	} {
		if got := parseCI(tc.v); got != tc.want {
			t.Errorf("parseCI(%q) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

func TestLookPathFindsAnInstalledTool(t *testing.T) {
	if got := LookPath(t, "sh", "apt-get install -y dash"); got == "" {
		t.Fatal(`LookPath(sh) = ""`)
	}
}
