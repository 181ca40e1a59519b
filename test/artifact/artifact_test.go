// Package artifact tests a Workers project's artifact as people use one,
// with the real dwk binary: `dwk bundle` builds testdata/shop (assets, a
// D1 migration, a Durable Object, a Data module, a secret in .dev.vars)
// into one file, twice and from another copy, for the same bytes; then
// `dwk serve` runs that file alone, in a directory where the project's
// sources are not, from --config and from a dwk.json, and the worker, its
// object, its database and its assets answer.
package artifact

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/jsworker/artifact"
	"github.com/dwk/fleet/test/procs"
)

// devSecret is the value testdata/shop/.dev.vars holds.
const devSecret = "dev-only-secret-value"

var readyRE = regexp.MustCompile(`ready on (http://\S+)`)

func TestBundleAndServe(t *testing.T) {
	t.Parallel()
	bin := procs.Binary(t)
	out := t.TempDir()

	// Build twice from one copy, by its directory and by its wrangler
	// file, and once from another copy, in its directory with no
	// argument: the same bytes and the same printed hash.
	src := copyShop(t)
	hash := dwk(t, bin, out, "bundle", src, "-o", "first.dwkb").stdout
	again := dwk(t, bin, out, "bundle", filepath.Join(src, "wrangler.toml"), "-o", "again.dwkb").stdout
	other := copyShop(t)
	elsewhere := dwk(t, bin, other, "bundle", "-o", filepath.Join(out, "elsewhere.dwkb")).stdout
	first := readFile(t, filepath.Join(out, "first.dwkb"))
	for _, name := range []string{"again.dwkb", "elsewhere.dwkb"} {
		if !bytes.Equal(first, readFile(t, filepath.Join(out, name))) {
			t.Errorf("%s differs from first.dwkb", name)
		}
	}
	if hash != again || hash != elsewhere || !regexp.MustCompile(`^[0-9a-f]{64}\n$`).MatchString(hash) {
		t.Errorf("dwk bundle printed %q, %q and %q; want one content hash thrice", hash, again, elsewhere)
	}
	checkContents(t, filepath.Join(out, "first.dwkb"), strings.TrimSpace(hash))
	for _, dir := range []string{src, other} {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
	}

	// Serve it from a directory that holds nothing else, as a host that
	// received only the artifact.
	t.Run("config", func(t *testing.T) {
		t.Parallel()
		dir := hostDir(t, first)
		// The migration ships inside the artifact: apply it from there.
		dwk(t, bin, dir, "d1", "migrations", "apply", "DB", "--local", "--config", "shop.dwkb", "--data-dir", "data")
		base, logs := serve(t, bin, dir, nil, "--config", "shop.dwkb")
		checkShop(t, base)
		if got := get(t, base, "/api/secret"); got != "no key" {
			t.Errorf("/api/secret = %q, want no key: an artifact carries no secret", got)
		}
		for _, want := range []string{"source=" + filepath.Join(dir, "shop.dwkb"), "hash=" + strings.TrimSpace(hash), "secret not bound", "secret=API_KEY"} {
			if !strings.Contains(logs(), want) {
				t.Errorf("dwk serve's log does not say %q:\n%s", want, logs())
			}
		}
	})
	t.Run("dwk.json", func(t *testing.T) {
		t.Parallel()
		dir := hostDir(t, first)
		writeFile(t, filepath.Join(dir, "dwk.json"), `{
			"storage": {"data_dir": "data"},
			"workers": [{"project": "shop.dwkb", "bindings": {"secrets": {"API_KEY": {"env": "SHOP_API_KEY"}}}}]
		}`)
		env := []string{"SHOP_API_KEY=from-the-host"}
		if r := run(t, bin, dir, env, "d1", "migrations", "apply", "DB", "--local", "--config", "dwk.json"); r.code != 0 {
			t.Fatalf("dwk d1 migrations apply: exit %d\n%s", r.code, r.stderr)
		}
		base, logs := serve(t, bin, dir, env, "--config", "dwk.json")
		checkShop(t, base)
		if got := get(t, base, "/api/secret"); got != "a key of 13 characters" {
			t.Errorf("/api/secret = %q, want the key dwk.json binds (13 characters)", got)
		}
		if strings.Contains(logs(), "secret not bound") {
			t.Errorf("dwk serve warns of an unbound secret that dwk.json binds:\n%s", logs())
		}
	})
}

// TestCorrupt checks that dwk refuses an artifact with a changed byte,
// naming the member.
func TestCorrupt(t *testing.T) {
	t.Parallel()
	bin := procs.Binary(t)
	dir := t.TempDir()
	dwk(t, bin, dir, "bundle", copyShop(t), "-o", "shop.dwkb")
	path := filepath.Join(dir, "shop.dwkb")
	data := readFile(t, path)
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name == "assets/index.html" {
			off, err := f.DataOffset()
			if err != nil {
				t.Fatal(err)
			}
			data[off+int64(f.CompressedSize64)/2] ^= 0x20
		}
	}
	writeFile(t, path, string(data))
	r := run(t, bin, dir, nil, "validate", "shop.dwkb")
	if r.code != 1 || !strings.Contains(r.stderr, "member assets/index.html") || !strings.Contains(r.stderr, "corrupt artifact") {
		t.Errorf("dwk validate of a corrupted artifact: exit %d\n%s\nwant exit 1 naming assets/index.html", r.code, r.stderr)
	}
}

func TestBundleUsage(t *testing.T) {
	t.Parallel()
	bin := procs.Binary(t)
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"bundle", "-h"}, 0, "Usage: dwk bundle [DIR|WRANGLER_FILE] -o FILE"},
		{[]string{"bundle", "."}, 2, "-o FILE is required"},
		{[]string{"bundle", "-o", "x.dwkb"}, 1, "no wrangler configuration file"},
		{[]string{"bundle", "a", "b", "-o", "x.dwkb"}, 2, "takes 0 to 1 arguments"},
	} {
		r := run(t, bin, dir, nil, tt.args...)
		if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("dwk %q: exit %d\n%s\nwant exit %d and %q", tt.args, r.code, r.stderr, tt.code, tt.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("failed runs left %d files behind", len(entries))
	}
}

// checkContents checks what the artifact holds, and what it must not.
func checkContents(t *testing.T, path, hash string) {
	t.Helper()
	a, err := artifact.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if a.Hash() != hash {
		t.Errorf("the artifact's content hash is %s, dwk bundle printed %s", a.Hash(), hash)
	}
	var names []string
	for _, e := range a.Manifest().Entries {
		names = append(names, e.Name)
	}
	want := []string{"assets/index.html", "assets/style.css", "migrations/DB/0001_items.sql", "modules/0", "worker.js", "worker.js.map"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("entries = %q, want %q (no .assetsignore, no drafts/)", names, want)
	}
	for _, e := range names {
		var content []byte
		switch {
		case strings.HasPrefix(e, "assets/"):
			content, err = fs.ReadFile(a.Assets(), strings.TrimPrefix(e, "assets/"))
		case e == "worker.js":
			content = a.Bundle().Script
		}
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(content, []byte(devSecret)) {
			t.Errorf("%s holds the secret's value", e)
		}
	}
	if got := a.Manifest().Project.SecretNames; len(got) != 1 || got[0] != "API_KEY" {
		t.Errorf("secret_names = %q, want [API_KEY]", got)
	}
}

// checkShop checks that the worker, its object, its database and its
// assets answer.
func checkShop(t *testing.T, base string) {
	t.Helper()
	tests := []struct {
		method, path string
		code         int
		want         string
	}{
		{"GET", "/", 200, "<h1>Welcome to the shop</h1>"},
		{"GET", "/style.css", 200, "h1 { color: teal; }\n"},
		{"GET", "/api/hello", 200, "hello from shop"},
		{"GET", "/api/badge", 200, "8 bytes"},
		{"POST", "/api/cart/alice/add", 200, "1"},
		{"POST", "/api/cart/alice/add", 200, "2"},
		{"POST", "/api/cart/bob/add", 200, "1"},
		{"POST", "/api/items?name=pen", 200, `[{"name":"pen"}]`},
		{"GET", "/api/items", 200, `[{"name":"pen"}]`},
		{"GET", "/drafts/next.html", 404, "not found"},
		{"GET", "/.assetsignore", 404, "not found"},
	}
	for _, tt := range tests {
		code, body := request(t, tt.method, base+tt.path)
		if code != tt.code || !strings.Contains(body, tt.want) {
			t.Errorf("%s %s = %d %q, want %d with %q", tt.method, tt.path, code, body, tt.code, tt.want)
		}
	}
}

// serve starts dwk serve in dir with args and env, on a free port, and
// returns its base URL and a function that returns its output so far.
func serve(t *testing.T, bin, dir string, env []string, args ...string) (string, func() string) {
	t.Helper()
	// sh changes to dir and then becomes dwk, so that dwk runs there.
	script := `cd "$1" && shift && exec "$@"`
	argv := append([]string{"-c", script, "sh", dir, bin, "serve", "--listen", "127.0.0.1:0", "--data-dir", "data"}, args...)
	p := procs.Start(t, "dwk serve "+filepath.Base(dir), "/bin/sh", env, argv...)
	timeout := time.Minute
	if procs.Race() {
		timeout = 3 * time.Minute
	}
	return p.WaitFor(readyRE, timeout)[1], p.Output
}

// hostDir is a new directory holding only the artifact, as shop.dwkb.
func hostDir(t *testing.T, data []byte) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "shop.dwkb"), string(data))
	return dir
}
