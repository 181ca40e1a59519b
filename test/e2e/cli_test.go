package e2e

import (
	"os"
	"os/exec"
	"testing"

	"github.com/dwk/fleet/test/needtool"
)

// envTofu names an OpenTofu binary the example tests also run under, for
// one that is not on PATH as tofu.
const envTofu = "DWK_TEST_TOFU"

// terraformInstall says how to get the CLI every example test runs under.
const terraformInstall = "terraform 1.11 or later from https://developer.hashicorp.com/terraform/install"

// cli is one Terraform CLI the example tests run under.
type cli struct {
	// name is the subtest's name: "terraform" or "tofu".
	name string
	// path is the executable; "" when terraform is not installed.
	path string
}

// clis lists the CLIs every example test runs under: terraform always
// (require skips or, under CI, fails its subtests when it is missing),
// then tofu when $DWK_TEST_TOFU names it or it is on PATH.
func clis() []cli {
	out := []cli{{name: "terraform"}}
	if p, err := exec.LookPath("terraform"); err == nil {
		out[0].path = p
	}
	if p := os.Getenv(envTofu); p != "" {
		return append(out, cli{name: "tofu", path: p})
	}
	if p, err := exec.LookPath("tofu"); err == nil {
		out = append(out, cli{name: "tofu", path: p})
	}
	return out
}

// require returns the CLI's executable, or ends t: a missing terraform
// through test/needtool, a $DWK_TEST_TOFU that is not an executable file
// by failing t.
func (c cli) require(t *testing.T) string {
	t.Helper()
	if c.path == "" {
		return needtool.LookPath(t, "terraform", terraformInstall)
	}
	if fi, err := os.Stat(c.path); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		t.Fatalf("%s=%s is not an executable file (%v)", envTofu, c.path, err)
	}
	return c.path
}

// eachCLI runs test once per CLI, as a subtest named after the CLI, with
// the CLI's executable.
func eachCLI(t *testing.T, test func(t *testing.T, bin string)) {
	t.Helper()
	for _, c := range clis() {
		t.Run(c.name, func(t *testing.T) { test(t, c.require(t)) })
	}
}
