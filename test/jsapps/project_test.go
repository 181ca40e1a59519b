package jsapps

import (
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dwk/fleet/test/needtool"
	"github.com/dwk/fleet/test/procs"
)

// worker is the chat project's worker name (wrangler.jsonc "name"), and
// roomClass the object class of its rooms as the admin API names it.
const (
	worker    = "chat"
	roomClass = worker + ".ChatRoom"
)

// client is the tests' HTTP client.
var client = &http.Client{Timeout: 30 * time.Second}

// chatProject returns the absolute path of the chat project's
// wrangler.jsonc, once its npm packages are installed; without them t
// skips, or fails under CI.
func chatProject(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("chat")
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"hono", "zod"} {
		needtool.File(t, "the chat project's npm packages", filepath.Join(dir, "node_modules", pkg, "package.json"),
			"scripts/tools.sh node (npm ci in test/jsapps/chat)")
	}
	return filepath.Join(dir, "wrangler.jsonc")
}

var readyRE = regexp.MustCompile(`ready on (http://\S+)`)

// server is one `dwk serve` of the chat project in local mode.
type server struct {
	URL  string // http://127.0.0.1:port
	proc *procs.Proc
}

// serve starts `dwk serve --config project --data-dir dir` on listen
// (host:port; port 0 picks one) and waits until it is ready.
func serve(t *testing.T, project, dir, listen string) *server {
	t.Helper()
	p := procs.Start(t, "dwk serve", procs.Binary(t), nil,
		"serve", "--config", project, "--data-dir", dir, "--listen", listen)
	// The first start bundles the project with esbuild; a -race binary is
	// slow at it.
	return &server{URL: p.WaitFor(readyRE, 90*time.Second)[1], proc: p}
}

// stop sends SIGTERM (a drain) and waits for a clean exit.
func (s *server) stop(t *testing.T) {
	t.Helper()
	s.proc.Signal(syscall.SIGTERM)
	if code, err := s.proc.Wait(60 * time.Second); err != nil || code != 0 {
		t.Fatalf("dwk serve: exit %d, %v after SIGTERM\n%s", code, err, s.proc.Output())
	}
}

// errorLines are the last few lines of level ERROR the processes printed,
// for failure messages: an app's uncaught exceptions show there, with
// their stacks.
func errorLines(ps ...*procs.Proc) string {
	const keep = 3
	var out []string
	for _, p := range ps {
		var errs []string
		for _, line := range strings.Split(p.Output(), "\n") {
			if strings.Contains(line, "level=ERROR") {
				errs = append(errs, line)
			}
		}
		if len(errs) > keep {
			errs = errs[len(errs)-keep:]
		}
		out = append(out, errs...)
	}
	if len(out) == 0 {
		return "dwk logged no errors"
	}
	return "dwk logged:\n" + strings.Join(out, "\n")
}

// noUncaught fails t if the app threw an exception it did not catch in
// one of ps: a test that passed the browser checks must not have got
// there on retries around a failing handler.
func noUncaught(t *testing.T, ps ...*procs.Proc) {
	t.Helper()
	for _, p := range ps {
		for _, line := range strings.Split(p.Output(), "\n") {
			if strings.Contains(line, "Uncaught") {
				t.Errorf("the app threw: %s", line)
			}
		}
	}
}
