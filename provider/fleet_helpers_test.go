package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/dwk/fleet/provider/internal/deploy"
	"github.com/dwk/fleet/test/freeport"
	"github.com/dwk/fleet/test/machines"
	"github.com/dwk/fleet/test/procs"
	"github.com/dwk/fleet/test/sshd"
)

// testSecret is a fleet secret long enough for central mode.
const testSecret = "acc-test-secret-0123456789abcdef0123456789"

// buildDwk builds dwk into dir with buildinfo.version set to version,
// for rollout tests that need a second, distinguishable binary, built as
// procs.DeployBinary's is (procs.DeployRace).
func buildDwk(dir, version string) (string, error) {
	out := filepath.Join(dir, "dwk-"+version)
	args := []string{"build", "-o", out, "-ldflags", "-X github.com/dwk/fleet/appliance/process/buildinfo.version=" + version}
	if procs.DeployRace() {
		args = append(args, "-race")
	}
	cmd := exec.Command("go", append(args, "github.com/dwk/fleet/cmd/dwk")...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build dwk %s: %v\n%s", version, err, b)
	}
	return out, nil
}

// v2Build is the second binary, built once for the package's tests:
// linking dwk takes longer than most test steps.
var v2Build struct {
	once      sync.Once
	dir, path string
	err       error
}

func TestMain(m *testing.M) {
	accEnv()
	if os.Getenv("TF_ACC") != "" {
		// The systemd tests' machines need a root file system that takes
		// minutes to build the first time: build it while other tests run.
		go func() {
			if err := machines.Warm(); err != nil {
				fmt.Fprintln(os.Stderr, "machines: building the root file system:", err)
			}
		}()
	}
	code := m.Run()
	if v2Build.dir != "" {
		os.RemoveAll(v2Build.dir)
	}
	os.Exit(code)
}

// copyFile copies src to dst (mode 0755), replacing dst.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	tmp := dst + ".tmp"
	out, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		t.Fatal(err)
	}
}

// testHost is one host of a test fleet with its listen addresses.
type testHost struct {
	ssh        *sshd.Host // nil for "local"
	installDir string
	public     string
	admin      string
}

func (h testHost) hcl(extra string) string {
	if h.ssh == nil {
		return fmt.Sprintf(`    {
      address     = "local"
      install_dir = %q
      member      = %q
      public      = %q
      admin       = %q
      %s
    },
`, h.installDir, filepath.Base(h.installDir), h.public, h.admin, extra)
	}
	return fmt.Sprintf(`    {
      address     = %q
      port        = %d
      user        = %q
      private_key = %q
      host_key    = %q
      install_dir = %q
      public      = %q
      admin       = %q
      %s
    },
`, h.ssh.Address, h.ssh.Port, h.ssh.User, h.ssh.PrivateKey, h.ssh.HostKey, h.installDir, h.public, h.admin, extra)
}

// sshHosts wraps sshd hosts with free listen ports on their addresses.
func sshHosts(t *testing.T, hs []*sshd.Host) []testHost {
	out := make([]testHost, len(hs))
	for i, h := range hs {
		out[i] = testHost{
			ssh: h, installDir: h.InstallDir,
			public: net.JoinHostPort(h.Address, strconv.Itoa(freeport.Port(t, h.Address))),
			admin:  net.JoinHostPort(h.Address, strconv.Itoa(freeport.Port(t, h.Address))),
		}
	}
	killLeftovers(t, out)
	return out
}

// localHosts returns n "local" hosts in temp install dirs.
func localHosts(t *testing.T, n int) []testHost {
	out := make([]testHost, n)
	for i := range out {
		out[i] = testHost{
			installDir: filepath.Join(t.TempDir(), fmt.Sprintf("replica-%d", i+1)),
			public:     "127.0.0.1:" + strconv.Itoa(freeport.Port(t, "127.0.0.1")),
			admin:      "127.0.0.1:" + strconv.Itoa(freeport.Port(t, "127.0.0.1")),
		}
	}
	killLeftovers(t, out)
	return out
}

// killLeftovers kills, when the test ends, any process still running from
// the hosts' install dirs — a failed test must not leak replicas.
func killLeftovers(t *testing.T, hs []testHost) {
	t.Cleanup(func() {
		for _, h := range hs {
			for _, pid := range processesIn(h.installDir) {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
}

// processesIn lists live processes whose command line mentions dir.
func processesIn(dir string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte(dir)) {
			continue
		}
		status, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if bytes.Contains(status, []byte("State:\tZ")) {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// fleetConfig is a dwk_fleet over hosts with artifact. extra holds more
// top-level attributes; those it sets replace the test defaults
// (drain_timeout, min_healthy_time, ready_timeout).
//
// With SSH hosts it configures the provider's ssh key too: each host's own
// private_key is write-only, so refresh and destroy use the provider's.
func fleetConfig(name, artifact string, hosts []testHost, extra string) string {
	var b strings.Builder
	b.WriteString(providerSSH(hosts))
	fmt.Fprintf(&b, "resource \"dwk_fleet\" \"f\" {\n  name     = %q\n  secret   = %q\n  artifact = %q\n", name, testSecret, artifact)
	for _, d := range [][2]string{{"drain_timeout", "5s"}, {"min_healthy_time", "1s"}, {"ready_timeout", "60s"}} {
		if !strings.Contains(extra, d[0]+" ") && !strings.Contains(extra, d[0]+"=") {
			fmt.Fprintf(&b, "  %s = %q\n", d[0], d[1])
		}
	}
	b.WriteString(extra + "\n  hosts = [\n")
	for _, h := range hosts {
		b.WriteString(h.hcl(""))
	}
	b.WriteString("  ]\n}\n")
	return b.String()
}

// providerSSH is a provider block with the SSH hosts' client key (sshd
// gives every host the same one), or "" without SSH hosts.
func providerSSH(hosts []testHost) string {
	for _, h := range hosts {
		if h.ssh != nil {
			return fmt.Sprintf("provider \"dwk\" {\n  ssh = { private_key = %q, agent = false }\n}\n", h.ssh.PrivateKey)
		}
	}
	return ""
}

// checkReady checks that every replica answers /readyz with 200 on its
// public URL.
func checkReady(hosts []testHost) func(*terraform.State) error {
	return func(*terraform.State) error {
		c := http.Client{Timeout: 5 * time.Second}
		for _, h := range hosts {
			resp, err := c.Get("http://" + h.public + "/readyz")
			if err != nil {
				return fmt.Errorf("replica in %s: %v", h.installDir, err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				return fmt.Errorf("replica in %s: /readyz answered %s", h.installDir, resp.Status)
			}
		}
		return nil
	}
}

// checkGone checks that nothing of the fleet is left: no install dir, no
// process.
func checkGone(hosts []testHost) func(*terraform.State) error {
	return func(*terraform.State) error {
		for _, h := range hosts {
			if _, err := os.Stat(h.installDir); !os.IsNotExist(err) {
				entries, _ := os.ReadDir(h.installDir)
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				return fmt.Errorf("install dir %s left behind (%v): %v", h.installDir, err, names)
			}
			if pids := processesIn(h.installDir); len(pids) > 0 {
				return fmt.Errorf("processes from %s left running: %v", h.installDir, pids)
			}
		}
		return nil
	}
}

// window is the time a replica was out of rotation: drain to healthy.
type window struct {
	host        int
	from, until time.Time
}

// rolloutWindows reads each host's deploy.log and returns the drain →
// healthy windows that started after since.
func rolloutWindows(hosts []testHost, since time.Time) ([]window, error) {
	var ws []window
	for i, h := range hosts {
		b, err := os.ReadFile(filepath.Join(h.installDir, "deploy.log"))
		if err != nil {
			return nil, err
		}
		evs, err := deploy.ParseEvents(string(b))
		if err != nil {
			return nil, err
		}
		var open *window
		for _, e := range evs {
			if e.Time.Before(since) {
				continue
			}
			switch e.Name {
			case deploy.EventDrain:
				open = &window{host: i, from: e.Time}
			case deploy.EventHealthy:
				if open == nil {
					return nil, fmt.Errorf("%s: healthy without drain:\n%s", h.installDir, b)
				}
				open.until = e.Time
				ws = append(ws, *open)
				open = nil
			}
		}
		if open != nil {
			return nil, fmt.Errorf("%s: drained but never healthy:\n%s", h.installDir, b)
		}
	}
	sort.Slice(ws, func(a, b int) bool { return ws[a].from.Before(ws[b].from) })
	return ws, nil
}

// maxOverlap is the most windows open at one time.
func maxOverlap(ws []window) int {
	most := 0
	for _, w := range ws {
		n := 0
		for _, o := range ws {
			if !o.from.After(w.from) && o.until.After(w.from) {
				n++
			}
		}
		most = max(most, n)
	}
	return most
}

// killReplica kills a replica's supervisor and replica (the whole process
// group) behind Terraform's back.
func killReplica(t *testing.T, h testHost) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(h.installDir, "dwk.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(processesIn(h.installDir)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("replica in %s survived SIGKILL", h.installDir)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// binaries returns the first dwk (the test build) and a second one built
// with version v2.
func binaries(t *testing.T) (v1, v2 string) {
	v2Build.once.Do(func() {
		if v2Build.dir, v2Build.err = os.MkdirTemp("", "dwk-acc-"); v2Build.err == nil {
			v2Build.path, v2Build.err = buildDwk(v2Build.dir, "acc-v2")
		}
	})
	if v2Build.err != nil {
		t.Fatal(v2Build.err)
	}
	return procs.DeployBinary(t), v2Build.path
}

// increment adds 1 to counter name through h and returns its new value.
func increment(h testHost, name string) (int, error) {
	c := http.Client{Timeout: 10 * time.Second}
	resp, err := c.Post("http://"+h.public+"/counter/"+url.PathEscape(name)+"/increment", "", nil)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var v struct{ Value int }
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("increment %s: %s", name, resp.Status)
	}
	err = json.NewDecoder(resp.Body).Decode(&v)
	return v.Value, err
}
