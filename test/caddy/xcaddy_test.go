package caddytest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// xcaddyVersion is the xcaddy the modules are built with.
const xcaddyVersion = "v0.4.5"

// TestXcaddyBuild builds Caddy with the dwk modules as ordinary third-party
// plugins, the way an operator would with xcaddy, and checks that the
// binary lists the three modules and adapts a Caddyfile that uses them exactly
// as the in-process adapter does (caddy/modules/testdata).
//
// The build takes minutes, so the binary is kept in the temp dir under a
// key of everything it is built from (see buildKey); a later run with the
// same key reuses it.
func TestXcaddyBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("the xcaddy build takes minutes; skipped with -short")
	}
	root := goList(t, "-m", "-f", "{{.Dir}}")
	caddyVersion := goList(t, "-m", "-f", "{{.Version}}", "github.com/caddyserver/caddy/v2")
	bin := filepath.Join(os.TempDir(), "dwk-xcaddy-"+buildKey(t, root, caddyVersion), "caddy")
	if _, err := os.Stat(bin); err != nil {
		build(t, root, caddyVersion, bin)
	} else {
		t.Logf("reusing %s", bin)
	}

	out := run(t, bin, "list-modules")
	for _, id := range []string{"http.reverse_proxy.upstreams.dwk", "http.reverse_proxy.selection_policies.dwk", "caddy.storage.dwk", "caddy.listeners.dwk_conns"} {
		if !strings.Contains(out, id+"\n") {
			t.Errorf("caddy list-modules lacks %s:\n%s", id, out)
		}
	}

	caddyfile := filepath.Join(root, "caddy", "modules", "testdata", "full.caddyfile")
	got := run(t, bin, "adapt", "--config", caddyfile)
	want, err := os.ReadFile(strings.TrimSuffix(caddyfile, ".caddyfile") + ".json")
	if err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(t, []byte(got), want) {
		t.Errorf("caddy adapt %s:\n%s\nwant (caddy/modules/testdata):\n%s", caddyfile, got, want)
	}
}

// build runs xcaddy with the plugin an operator names,
// `--with github.com/dwk/fleet/caddy/modules`, and the module replaced by
// the checkout. GOPROXY is
// rewritten to fall through to an empty local proxy, because a proxy (or
// "direct" without internet) may refuse a lookup with an error other than
// "not found".
func build(t *testing.T, root, caddyVersion, bin string) {
	t.Helper()
	start := time.Now()
	tmp := bin + ".tmp"
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "github.com/caddyserver/xcaddy/cmd/xcaddy@" + xcaddyVersion, "build", caddyVersion, "--output", tmp}
	// Either way the go command asks the proxy for the replaced module's
	// versions, which a proxy may refuse with an error other than "not
	// found"; fall through to an empty local proxy.
	env := append(os.Environ(), "GOPROXY="+fallThroughProxy(goEnv(t, "GOPROXY"), t.TempDir()))
	args = append(args, "--with", "github.com/dwk/fleet/caddy/modules", "--replace", "github.com/dwk/fleet="+root)
	cmd := exec.Command("go", args...)
	cmd.Dir = t.TempDir()
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	if err := os.Rename(tmp, bin); err != nil {
		t.Fatal(err)
	}
	t.Logf("built %s with xcaddy in %v", bin, time.Since(start).Round(time.Second))
	removeStaleBuilds(filepath.Dir(bin))
}

// removeStaleBuilds deletes binaries of other keys older than a day, so
// the temp dir does not fill up with one Caddy per change.
func removeStaleBuilds(keep string) {
	dirs, _ := filepath.Glob(filepath.Join(filepath.Dir(keep), "dwk-xcaddy-*"))
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil && d != keep && time.Since(fi.ModTime()) > 24*time.Hour {
			os.RemoveAll(d)
		}
	}
}

// fallThroughProxy returns the proxies of goproxy, without "direct" and
// "off" (whose errors would mask "not found"), each falling through on any
// error, ending in the empty file proxy at dir, which answers "not found".
func fallThroughProxy(goproxy, dir string) string {
	var out []string
	for _, p := range strings.FieldsFunc(goproxy, func(r rune) bool { return r == ',' || r == '|' }) {
		if p != "direct" && p != "off" {
			out = append(out, p)
		}
	}
	return strings.Join(append(out, "file://"+filepath.ToSlash(dir)), "|")
}

// buildKey hashes everything the built binary depends on: go.mod, go.sum,
// the Go files of every package of this module that caddy/modules
// imports, and the Caddy, xcaddy and Go versions.
func buildKey(t *testing.T, root, caddyVersion string) string {
	t.Helper()
	h := sha256.New()
	fmt.Fprintln(h, caddyVersion, xcaddyVersion, runtime.Version())
	files := []string{filepath.Join(root, "go.mod"), filepath.Join(root, "go.sum")}
	deps := goList(t, "-deps", "-f",
		`{{if .Module}}{{if eq .Module.Path "github.com/dwk/fleet"}}{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}{{end}}{{end}}`,
		"github.com/dwk/fleet/caddy/modules")
	files = append(files, strings.Fields(deps)...)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "%s %d\n", strings.TrimPrefix(f, root), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func goList(t *testing.T, args ...string) string {
	t.Helper()
	return strings.TrimSpace(run(t, "go", append([]string{"list"}, args...)...))
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	return strings.TrimSpace(run(t, "go", "env", name))
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String()
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}
