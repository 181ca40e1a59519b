// Package needtool is the one policy for a test that runs an external tool
// (terraform, tofu, sshd, node, versitygw) the machine may lack.
//
// Under CI, that is when the CI environment variable holds a true value
// ("true", "1", as GitHub Actions, GitLab CI and most CI systems set it), a
// missing tool fails the test: a CI run without its tools must not pass by
// skipping the tests that need them. Elsewhere the test skips. Either way
// the message names the tool and says how to install it.
//
// CI is read once, when the package is loaded.
package needtool

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// EnvCI is the environment variable that says the tests run under CI.
const EnvCI = "CI"

// std is the policy of this process.
var std = policy{ci: parseCI(os.Getenv(EnvCI))}

// parseCI reports whether v, the value of $CI, says the tests run under CI.
func parseCI(v string) bool {
	b, err := strconv.ParseBool(v)
	return err == nil && b
}

// CI reports whether the tests run under CI, where a missing tool fails
// the test.
func CI() bool { return std.ci }

// Missing ends t because tool is not installed: under CI it fails t,
// elsewhere it skips t. install says how to get the tool (a command or a
// URL); why, when not nil, is what looking for it found.
func Missing(t testing.TB, tool, install string, why error) {
	t.Helper()
	std.missing(t, tool, install, why)
}

// LookPath returns the path of the executable name found in PATH; when
// there is none it ends t through Missing.
func LookPath(t testing.TB, name, install string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		std.missing(t, name, install, err)
		return ""
	}
	return p
}

// File returns path when a file exists there; when there is none it ends t
// through Missing, naming the tool.
func File(t testing.TB, tool, path, install string) string {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		std.missing(t, tool, install, err)
		return ""
	}
	return path
}

// policy decides between failing and skipping.
type policy struct {
	ci bool
}

func (p policy) missing(t testing.TB, tool, install string, why error) {
	t.Helper()
	found := ""
	if why != nil {
		found = fmt.Sprintf(" (%v)", why)
	}
	if p.ci {
		t.Fatalf("%s is not installed%s, and under CI (%s=true) a missing tool fails the tests that need it; install it: %s",
			tool, found, EnvCI, install)
		return
	}
	t.Skipf("%s is not installed%s; install it to run this test: %s", tool, found, install)
}
