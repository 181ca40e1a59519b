// Package wranglercmds tests the wrangler-style store commands (dwk d1,
// kv, r2, queues) as people run them: the real dwk binary, built once,
// on the local data directory of a small Workers project (testdata/notes)
// and on a central fleet whose replica serves the same project; what the
// commands write is checked through the project's worker, served by dwk
// serve.
package wranglercmds

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/test/procs"
)

// TestMain builds dwk once for every test here (and for the fleet the
// fleet test starts), unless $DWK_BIN names a build already.
func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if os.Getenv("DWK_BIN") != "" {
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "dwk-wranglercmds-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "dwk")
	args := []string{"build", "-o", bin}
	if procs.Race() {
		args = append(args, "-race")
	}
	out, err := exec.Command("go", append(args, "github.com/dwk/fleet/cmd/dwk")...).CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "go build dwk: %v\n%s", err, out)
		return 1
	}
	os.Setenv("DWK_BIN", bin)
	return m.Run()
}

// result is what one dwk command did.
type result struct {
	stdout, stderr string
	code           int
}

// cli runs dwk commands in a directory with an environment.
type cli struct {
	t   *testing.T
	dir string
	env []string
	// extra are appended to every command's arguments.
	extra []string
}

// run runs dwk with args (and c.extra) and stdin, waits for it and fails
// the test if it could not run or printed a data race or a panic. Call it
// from the test's goroutine; other goroutines call exec.
func (c cli) run(stdin string, args ...string) result {
	c.t.Helper()
	r, err := c.exec(stdin, args...)
	if err != nil {
		c.t.Fatal(err)
	}
	return r
}

// exec is run for any goroutine: it reports what run fails the test for
// as an error.
func (c cli) exec(stdin string, args ...string) (result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, procs.Binary(c.t), append(append([]string(nil), args...), c.extra...)...)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), c.env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	default:
		return r, fmt.Errorf("dwk %q: %v\n%s", args, err, r.stderr)
	}
	for _, bad := range []string{"WARNING: DATA RACE", "panic:"} {
		if strings.Contains(r.stderr, bad) {
			return r, fmt.Errorf("dwk %q printed %q:\n%s", args, bad, r.stderr)
		}
	}
	return r, nil
}

// ok runs a command that must succeed and returns its stdout.
func (c cli) ok(args ...string) string {
	c.t.Helper()
	r := c.run("", args...)
	if r.code != 0 {
		c.t.Fatalf("dwk %q: exit %d\nstdout:\n%s\nstderr:\n%s", args, r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

// fails runs a command that must fail, and checks that its error
// mentions each of want.
func (c cli) fails(want []string, args ...string) result {
	c.t.Helper()
	r := c.run("", args...)
	if r.code == 0 {
		c.t.Fatalf("dwk %q succeeded, want a failure\nstdout:\n%s", args, r.stdout)
	}
	for _, w := range want {
		if !strings.Contains(r.stderr, w) {
			c.t.Errorf("dwk %q: error does not mention %q:\n%s", args, w, r.stderr)
		}
	}
	return r
}

// copyProject copies testdata/notes into a fresh directory and returns
// the directory.
func copyProject(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "notes")
	err := filepath.WalkDir("testdata/notes", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("testdata/notes", p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// writeFile writes a test file.
func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

var httpClient = &http.Client{Timeout: 30 * time.Second}

// get fetches base+path from the worker and returns the status and body.
func get(t *testing.T, base, path string) (int, string, http.Header) {
	t.Helper()
	resp, err := httpClient.Get(base + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return resp.StatusCode, string(b), resp.Header
}

// getOK fetches a path that must answer 200 and returns its body.
func getOK(t *testing.T, base, path string) string {
	t.Helper()
	code, body, _ := get(t, base, path)
	if code != http.StatusOK {
		t.Fatalf("GET %s = %d %s, want 200", path, code, body)
	}
	return body
}

// query runs SQL on a D1 database with `d1 execute --json` and returns
// the rows of its last statement.
func (c cli) query(db, sql string) []map[string]any {
	c.t.Helper()
	out := c.ok("d1", "execute", db, "--command", sql, "--json")
	var results []struct {
		Results []map[string]any `json:"results"`
		Success bool             `json:"success"`
	}
	if err := json.Unmarshal([]byte(out), &results); err != nil {
		c.t.Fatalf("d1 execute --json printed %q: %v", out, err)
	}
	if len(results) == 0 || !results[len(results)-1].Success {
		c.t.Fatalf("d1 execute --json printed %q: want results, the last successful", out)
	}
	return results[len(results)-1].Results
}

// jsonOf renders v as compact JSON, for comparisons.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
