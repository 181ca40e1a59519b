package jsprojects

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/test/needtool"
	"github.com/dwk/fleet/test/procs"
)

// site is a running deployment of one or more projects, as a client
// reaches it.
type site struct {
	// doors are the base URLs of the front doors: one in local mode, one
	// per replica on a fleet.
	doors []string
	// logs returns everything the serving processes printed so far.
	logs func() string
	// fleet is set on a central fleet.
	fleet bool
}

// url is the URL of path through door i (modulo the number of doors), so
// that a test spreads its requests over the fleet's front doors.
func (s *site) url(i int, path string) string {
	return s.doors[i%len(s.doors)] + path
}

// client bounds every request of the tests: none should take longer than
// the slowest case (the CPU limit, 30 s) plus the -race slowdown.
var client = &http.Client{Timeout: 90 * time.Second}

// noRedirects is client for requests whose redirect the test reads.
var noRedirects = &http.Client{
	Timeout:       client.Timeout,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// projectsDir is the directory of the projects, absolute.
func projectsDir(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test's source")
	}
	return filepath.Join(filepath.Dir(file), "projects")
}

// projectDir is the directory of project name; it checks that its npm
// dependencies are installed.
func projectDir(t testing.TB, name string) string {
	t.Helper()
	dir := filepath.Join(projectsDir(t), name)
	if _, err := os.Stat(filepath.Join(dir, "package-lock.json")); err == nil {
		needtool.File(t, "the npm packages of test/jsprojects/projects/"+name, filepath.Join(dir, "node_modules"), "scripts/tools.sh node (npm ci in each project)")
	}
	return dir
}

// runDwk runs the dwk binary with args and env additions, and returns
// its output; it fails t when dwk does not exit 0 within two minutes.
func runDwk(t testing.TB, env []string, args ...string) string {
	t.Helper()
	p := procs.Start(t, "dwk "+strings.Join(args, " "), procs.Binary(t), env, args...)
	if code, err := p.Wait(2 * time.Minute); err != nil || code != 0 {
		t.Fatalf("dwk %s: exit %d, %v\n%s", strings.Join(args, " "), code, err, p.Output())
	}
	return p.Output()
}

// response is an answer read whole.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) String() string { return fmt.Sprintf("%d %s", r.status, r.body) }

// json decodes the body into v, failing t when it is not JSON.
func (r response) json(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("answer %d is not JSON (%v): %q", r.status, err, r.body)
	}
}

// do sends a request and reads the answer whole, failing t when there is
// no answer. body is sent as is when it is a string, []byte or io.Reader,
// and as JSON otherwise. header holds name, value pairs; an empty value
// sends no header.
func do(t testing.TB, method, url string, body any, header ...string) response {
	t.Helper()
	r, err := send(method, url, body, header...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// send is do for goroutines other than the test's: it returns the error.
func send(method, url string, body any, header ...string) (response, error) {
	var rd io.Reader
	ctype := ""
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	case io.Reader:
		rd = b
	default:
		j, err := json.Marshal(b)
		if err != nil {
			return response{}, err
		}
		rd, ctype = bytes.NewReader(j), "application/json"
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return response{}, err
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i+1] != "" {
			req.Header.Set(header[i], header[i+1])
		}
	}
	resp, err := client.Do(req)
	if err != nil {
		return response{}, fmt.Errorf("%s %s: %w", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return response{}, fmt.Errorf("%s %s: reading the body: %w", method, url, err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: b}, nil
}

// want fails t unless r has status code.
func (r response) want(t testing.TB, code int, what string) response {
	t.Helper()
	if r.status != code {
		t.Fatalf("%s: got %d %q, want %d", what, r.status, r.body, code)
	}
	return r
}

// jsonOf is v as JSON.
func jsonOf(v any) ([]byte, error) { return json.Marshal(v) }

// jsonInto decodes b into v, failing t when it does not decode.
func jsonInto(t testing.TB, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
}
