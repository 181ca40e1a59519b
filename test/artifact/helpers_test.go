package artifact

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var httpClient = &http.Client{Timeout: 30 * time.Second}

// result is what one dwk command did.
type result struct {
	stdout, stderr string
	code           int
}

// run runs dwk with args in dir, env added, and fails the test if it
// printed a data race or a panic.
func run(t *testing.T, bin, dir string, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
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
		t.Fatalf("dwk %q: %v\n%s", args, err, r.stderr)
	}
	for _, bad := range []string{"WARNING: DATA RACE", "panic:"} {
		if strings.Contains(r.stderr, bad) {
			t.Fatalf("dwk %q printed %q:\n%s", args, bad, r.stderr)
		}
	}
	return r
}

// dwk runs a dwk command that must succeed.
func dwk(t *testing.T, bin, dir string, args ...string) result {
	t.Helper()
	r := run(t, bin, dir, nil, args...)
	if r.code != 0 {
		t.Fatalf("dwk %q: exit %d\nstdout:\n%s\nstderr:\n%s", args, r.code, r.stdout, r.stderr)
	}
	return r
}

// copyShop copies testdata/shop into a new temporary directory and
// returns the copy.
func copyShop(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "shop")
	if err := os.CopyFS(dst, os.DirFS(filepath.Join("testdata", "shop"))); err != nil {
		t.Fatal(err)
	}
	return dst
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// request sends a request without a body and returns the status and
// body.
func request(t *testing.T, method, url string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	return resp.StatusCode, string(b)
}

// get is the body of a GET that must answer 200.
func get(t *testing.T, base, path string) string {
	t.Helper()
	code, body := request(t, "GET", base+path)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, code, body)
	}
	return body
}
