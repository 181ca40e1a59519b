package e2e

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestInstallProvider is what a user does with a checkout: `make
// install-provider`, then plain `terraform init` and `terraform apply` in
// an example with no CLI configuration at all. HOME is a temp dir, so the
// provider must come from the implied local mirror the target fills
// (~/.terraform.d/plugins for Terraform, ~/.local/share/opentofu/plugins
// for OpenTofu), and nothing can come from a registry.
func TestInstallProvider(t *testing.T) {
	skipShort(t)
	home := t.TempDir()
	installProvider(t, home)
	eachCLI(t, func(t *testing.T, bin string) { testInstallProvider(t, bin, home) })
}

// installProvider runs `make install-provider` with HOME=home, the Go
// caches kept where they are so that nothing is rebuilt from scratch, and
// checks that both mirrors hold the provider under the version
// scripts/provider-version.sh gives.
func installProvider(t *testing.T, home string) {
	t.Helper()
	env := []string{"HOME=" + home}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", k, err)
		}
		env = append(env, k+"="+strings.TrimSpace(string(out)))
	}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "XDG_") && !strings.HasPrefix(kv, "MAKE") {
			env = append(env, kv)
		}
	}
	cmd := exec.Command("make", "--no-print-directory", "install-provider", "BIN="+filepath.Join(home, "bin"))
	cmd.Dir, cmd.Env = root, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make install-provider: %v\n%s", err, out)
	}
	v, err := exec.Command(filepath.Join(root, "scripts", "provider-version.sh")).Output()
	if err != nil {
		t.Fatalf("scripts/provider-version.sh: %v", err)
	}
	version := strings.TrimSpace(string(v))
	platform := runtime.GOOS + "_" + runtime.GOARCH
	for _, dir := range []string{
		filepath.Join(home, ".terraform.d", "plugins", "registry.terraform.io"),
		filepath.Join(home, ".local", "share", "opentofu", "plugins", "registry.opentofu.org"),
	} {
		p := filepath.Join(dir, "dwk", "dwk", version, platform, "terraform-provider-dwk_v"+version)
		if fi, err := os.Stat(p); err != nil || fi.Mode()&0o111 == 0 {
			t.Errorf("make install-provider left no executable provider at %s: %v", p, err)
		}
	}
}

func testInstallProvider(t *testing.T, bin, home string) {
	needApp(t)
	version, err := providerVersion()
	if err != nil {
		t.Fatal(err)
	}
	st := startStores(t)
	work := workCopy(t, "examples/local", localApp)
	stateDir := filepath.Join(t.TempDir(), "fleet")
	vars := st.vars()
	maps.Copy(vars, map[string]string{
		"name": "e2e-" + randHex(4), "fleet_secret": randHex(32), "artifact": dwkBin(t), "app_token": randHex(16),
		"state_dir": stateDir, "base_port": strconv.Itoa(portBlock(t, 1, 10)), "replicas": "1",
	})
	w := newTF(t, bin, filepath.Join(work, "examples", "local"), vars)
	w.env = withoutCLIConfig(w.env, home)
	r := w.must("init", "-input=false", "-backend-config=path="+filepath.Join(work, "local.tfstate"))
	if !strings.Contains(r.stdout, "dwk/dwk v"+version) {
		t.Errorf("terraform init did not install dwk/dwk v%s:\n%s", version, r.stdout)
	}
	td := w.teardownAt(stateDir)
	w.must("apply", "-auto-approve", "-input=false")
	var urls []string
	w.output("urls", &urls)
	if len(urls) != 1 {
		t.Fatalf("urls = %v, want 1", urls)
	}
	w.must("destroy", "-auto-approve", "-input=false")
	td.done = true
}

// withoutCLIConfig is env with HOME set to home and no CLI configuration
// (no TF_CLI_CONFIG_FILE, no XDG directory pointing elsewhere).
func withoutCLIConfig(env []string, home string) []string {
	var out []string
	for _, kv := range env {
		if strings.HasPrefix(kv, "TF_CLI_CONFIG_FILE=") || strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "XDG_") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "HOME="+home)
}
