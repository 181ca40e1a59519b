package s3server

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/test/freeport"
	"github.com/dwk/fleet/test/procs"
)

// Gateway start-up limits.
const (
	// readyTimeout bounds how long one start waits for the health endpoint.
	readyTimeout = 20 * time.Second
	// portAttempts is how often a first start picks a new port when the
	// one it picked was taken before the gateway could bind it.
	portAttempts = 3
	// healthPath is the unauthenticated endpoint polled for readiness.
	healthPath = "/health"
)

// gateway is one versitygw process and the data it keeps across restarts.
type gateway struct {
	t                      testing.TB
	bin                    string
	root                   string // posix backend root: one directory per bucket
	sidecar                string // metadata directory, "" to use xattrs
	access, secret, region string
	host                   string // the address it listens on

	mu   sync.Mutex // guards addr and proc
	addr string     // host:port, fixed after the first start
	proc *procs.Proc
}

// newGateway prepares the directories of versitygw (bin) in t.TempDir()
// and starts it.
func newGateway(t testing.TB, bin, host, access, secret, region string) (*gateway, error) {
	dir := t.TempDir()
	g := &gateway{
		t: t, bin: bin, host: host,
		root:   filepath.Join(dir, "root"),
		access: access, secret: secret, region: region,
	}
	if err := os.Mkdir(g.root, 0o755); err != nil {
		return nil, err
	}
	if !userXattrs(g.root) {
		g.sidecar = filepath.Join(dir, "meta")
		if err := os.Mkdir(g.sidecar, 0o755); err != nil {
			return nil, err
		}
	}
	if err := g.start(); err != nil {
		return nil, err
	}
	return g, nil
}

// findBinary looks for versitygw in PATH, then in $GOBIN and
// $(go env GOPATH)/bin, where go install puts it.
func findBinary() (string, error) {
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p, nil
	}
	var dirs []string
	if out, err := exec.Command("go", "env", "GOBIN").Output(); err == nil && len(bytes.TrimSpace(out)) > 0 {
		dirs = append(dirs, string(bytes.TrimSpace(out)))
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		for _, d := range filepath.SplitList(strings.TrimSpace(string(out))) {
			dirs = append(dirs, filepath.Join(d, "bin"))
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, "go", "bin"))
	}
	for _, d := range dirs {
		p := filepath.Join(d, "versitygw")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("not in PATH or %s", strings.Join(dirs, ", "))
}

// endpoint is the gateway's base URL.
func (g *gateway) endpoint() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return "http://" + g.addr
}

// start runs the gateway and waits until it answers. The first start picks
// a free port; later ones reuse it, so clients keep their endpoint.
func (g *gateway) start() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	attempts := 1
	if g.addr == "" {
		attempts = portAttempts
	}
	var err error
	for range attempts {
		addr := g.addr
		if addr == "" {
			if addr, err = freeport.Addr(g.host); err != nil {
				return err
			}
		}
		var p *procs.Proc
		if p, err = g.run(addr); err == nil {
			g.addr, g.proc = addr, p
			return nil
		}
	}
	return err
}

// run starts one gateway process on addr and waits for its health
// endpoint. On failure the process is gone.
func (g *gateway) run(addr string) (*procs.Proc, error) {
	args := []string{
		"--port", addr,
		"--region", g.region,
		"--health", healthPath,
		"--keep-alive",
		"--quiet",
		"posix",
	}
	if g.sidecar != "" {
		args = append(args, "--sidecar", g.sidecar)
	}
	args = append(args, g.root)
	// Credentials go through the environment, not the command line that
	// any process listing shows.
	env := []string{"ROOT_ACCESS_KEY=" + g.access, "ROOT_SECRET_KEY=" + g.secret}
	p := procs.Start(g.t, "versitygw", g.bin, env, args...)
	if err := waitReady(p, "http://"+addr+healthPath); err != nil {
		p.Kill()
		return nil, fmt.Errorf("versitygw on %s: %w; output:\n%s", addr, err, p.Output())
	}
	return p, nil
}

// waitReady polls url until it answers 200, the process exits, or
// readyTimeout passes.
func waitReady(p *procs.Proc, url string) error {
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(readyTimeout)
	for {
		resp, err := client.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			err = fmt.Errorf("health check answered %s", resp.Status)
		}
		if code, werr := p.Wait(50 * time.Millisecond); werr == nil {
			return fmt.Errorf("exited with status %d before it answered", code)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not ready after %v: %w", readyTimeout, err)
		}
	}
}

// stop kills the gateway, if it runs, and waits for it to exit.
func (g *gateway) stop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.proc != nil {
		g.proc.Kill()
		g.proc = nil
	}
}
