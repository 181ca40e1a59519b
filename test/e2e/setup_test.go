package e2e

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// root is the repository root (the tests run in test/e2e).
var root = func() string {
	abs, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return abs
}()

// buildDir holds what the tests build once per run; TestMain removes it.
var buildDir struct {
	once sync.Once
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir.path != "" {
		os.RemoveAll(buildDir.path)
	}
	os.Exit(code)
}

// shared returns the per-run build directory.
func shared(t *testing.T) string {
	t.Helper()
	buildDir.once.Do(func() { buildDir.path, buildDir.err = os.MkdirTemp("", "dwk-e2e-") })
	if buildDir.err != nil {
		t.Fatal(buildDir.err)
	}
	return buildDir.path
}

// skipShort skips tests that apply real fleets under -short.
func skipShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("applies a real fleet; skipped with -short")
	}
}

// goBuild builds pkg (a package path or directory) into out, once per run.
type built struct {
	once sync.Once
	path string
	err  error
}

var (
	providerBuild built
	dwkBuild      built
)

func (b *built) get(t *testing.T, name string, dir string, args ...string) string {
	t.Helper()
	b.once.Do(func() {
		out := filepath.Join(shared(t), name)
		cmd := exec.Command("go", append([]string{"build", "-o", out}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if b2, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build %s: %v\n%s", name, err, b2)
			return
		}
		b.path = out
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// dwkBin is the dwk binary the tests deploy: $DWK_BIN when set (make test
// sets it to a -race build, so the replicas' logs are checked for data
// races), else one built from this checkout.
func dwkBin(t *testing.T) string {
	if p := os.Getenv("DWK_BIN"); p != "" {
		return p
	}
	return dwkBuild.get(t, "dwk", root, "-trimpath", "./cmd/dwk")
}

// checkReplicaLogs fails the test when a replica's log (dwk.log in its
// install directory, which destroy removes) reports a panic or a data
// race. Call it before destroy.
func checkReplicaLogs(t *testing.T, members []member) {
	t.Helper()
	for _, m := range members {
		b, err := os.ReadFile(filepath.Join(m.InstallDir, "dwk.log"))
		if err != nil {
			t.Errorf("replica %s: %v", m.Member, err)
			continue
		}
		for _, bad := range []string{"DATA RACE", "panic:"} {
			if i := strings.Index(string(b), bad); i >= 0 {
				t.Errorf("replica %s logged %q:\n%s", m.Member, bad, tail(string(b[i:]), 60))
			}
		}
	}
}

// providerVersion is the version the filesystem mirror offers, by the
// rule in scripts/provider-version.sh (the modules' constraints accept it).
func providerVersion() (string, error) {
	out, err := exec.Command(filepath.Join(root, "scripts", "provider-version.sh")).Output()
	if err != nil {
		return "", fmt.Errorf("scripts/provider-version.sh: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

var mirrorOnce struct {
	once sync.Once
	cfg  string
	err  error
}

// cliConfig returns a Terraform CLI configuration that installs dwk/dwk from
// a filesystem mirror holding the provider built from this checkout, and
// nothing from the network.
func cliConfig(t *testing.T) string {
	t.Helper()
	bin := providerBuild.get(t, "terraform-provider-dwk", root, "./cmd/terraform-provider-dwk")
	mirrorOnce.once.Do(func() {
		dir := filepath.Join(shared(t), "plugins")
		platform := runtime.GOOS + "_" + runtime.GOARCH
		providerVersion, err := providerVersion()
		if err != nil {
			mirrorOnce.err = err
			return
		}
		for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
			d := filepath.Join(dir, host, "dwk", "dwk", providerVersion, platform)
			if err := os.MkdirAll(d, 0o755); err != nil {
				mirrorOnce.err = err
				return
			}
			if err := copyFile(bin, filepath.Join(d, "terraform-provider-dwk_v"+providerVersion), 0o755); err != nil {
				mirrorOnce.err = err
				return
			}
		}
		cfg := filepath.Join(shared(t), "terraformrc")
		mirrorOnce.err = os.WriteFile(cfg, fmt.Appendf(nil, `provider_installation {
  filesystem_mirror {
    path    = %q
    include = ["registry.terraform.io/dwk/dwk", "registry.opentofu.org/dwk/dwk"]
  }
  direct {
    exclude = ["registry.terraform.io/dwk/dwk", "registry.opentofu.org/dwk/dwk"]
  }
}
`, dir), 0o644)
		mirrorOnce.cfg = cfg
	})
	if mirrorOnce.err != nil {
		t.Fatal(mirrorOnce.err)
	}
	return mirrorOnce.cfg
}

// workCopy copies modules/ and the given directories of the checkout into
// a temp dir, keeping their relative paths (examples refer to
// ../../modules), without any Terraform working state. It returns the
// copy's root.
func workCopy(t *testing.T, dirs ...string) string {
	t.Helper()
	dst := t.TempDir()
	for _, d := range append([]string{"modules"}, dirs...) {
		if err := copyTree(filepath.Join(root, d), filepath.Join(dst, d)); err != nil {
			t.Fatalf("copy %s: %v", d, err)
		}
	}
	return dst
}

// copyTree copies src to dst, leaving out Terraform's working files.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if name == ".terraform" || name == "terraform.tfstate.d" {
			return filepath.SkipDir
		}
		if name == ".terraform.lock.hcl" || strings.HasPrefix(name, "terraform.tfstate") {
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return copyFile(p, target, info.Mode().Perm())
	})
}

func copyFile(src, dst string, mode os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// randHex returns n random bytes, hex encoded.
func randHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// portBlock returns a base port such that base + stride*i + {0, 1, 2} is
// free for every i < n: a replica's public, internal and admin ports.
// Blocks are picked at random, away from the ephemeral range other tests'
// :0 listeners use.
func portBlock(t *testing.T, n, stride int) int {
	t.Helper()
	for range 50 {
		var b [2]byte
		rand.Read(b[:])
		base := 20000 + (int(b[0])<<8|int(b[1]))%(12000-stride*n)
		if blockFree(base, n, stride) {
			return base
		}
	}
	t.Fatal("found no block of free ports in 20000-32000")
	return 0
}

func blockFree(base, n, stride int) bool {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	for i := range n {
		for k := range 3 {
			l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", base+stride*i+k))
			if err != nil {
				return false
			}
			ls = append(ls, l)
		}
	}
	return true
}

// processesUnder lists the processes whose command line mentions dir: the
// replicas (and their dwk supervise) installed under it.
func processesUnder(dir string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || len(b) == 0 {
			continue
		}
		cmd := strings.ReplaceAll(strings.TrimRight(string(b), "\x00"), "\x00", " ")
		if strings.Contains(cmd, dir) {
			out = append(out, e.Name()+": "+cmd)
		}
	}
	return out
}

// waitNoProcessesUnder polls until no process mentions dir, and fails the
// test with the survivors after timeout.
func waitNoProcessesUnder(t *testing.T, dir string, timeout time.Duration) {
	t.Helper()
	if runtime.GOOS != "linux" {
		return
	}
	deadline := time.Now().Add(timeout)
	for {
		left := processesUnder(dir)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes still running under %s after destroy:\n%s", dir, strings.Join(left, "\n"))
		}
		time.Sleep(100 * time.Millisecond)
	}
}
