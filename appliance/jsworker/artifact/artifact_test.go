package artifact_test

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/artifact"
)

func TestRoundTrip(t *testing.T) {
	p := load(t, copyApp(t))
	data, hash := write(t, p)
	a, err := artifact.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := a.Hash(); got != hash || len(got) != 64 {
		t.Errorf("Hash() = %q, Write returned %q; want the same 64 hex digits", got, hash)
	}

	b := a.Bundle()
	if !bytes.Equal(b.Script, p.Bundle.Script) || !bytes.Equal(b.SourceMap, p.Bundle.SourceMap) {
		t.Error("the script or its source map differs from the bundle written")
	}
	if !reflect.DeepEqual(b.Modules, p.Bundle.Modules) || len(b.Modules) != 1 {
		t.Errorf("modules = %+v, want the bundle's one module %+v", b.Modules, p.Bundle.Modules)
	}
	if b.Hash != p.Bundle.Hash {
		t.Errorf("bundle hash = %s, want %s", b.Hash, p.Bundle.Hash)
	}

	gotAssets := a.Assets()
	if gotAssets == nil {
		t.Fatal("Assets() = nil for a project with assets")
	}
	wantAssets := map[string]string{
		"index.html":               "<!doctype html><title>shop</title><link rel=\"stylesheet\" href=\"/css/site.css\"><h1>shop</h1>\n",
		"css/site.css":             "h1 { color: teal; }\n",
		"404.html":                 "<!doctype html><title>not found</title>\n",
		".well-known/security.txt": "Contact: mailto:security@example.com\n",
	}
	if got := tree(t, gotAssets); !reflect.DeepEqual(got, wantAssets) {
		t.Errorf("assets = %q\nwant %q (no .assetsignore, _headers, _redirects, drafts/ or *.draft.html)", got, wantAssets)
	}

	for _, tt := range []struct {
		binding string
		want    map[string]string
	}{
		{"DB", map[string]string{
			"0001_items.sql": "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT);\n",
			"0002_price.sql": "ALTER TABLE items ADD COLUMN price INTEGER;\n",
		}},
		{"AUDIT", map[string]string{"0001_init/migration.sql": "CREATE TABLE log (at TEXT);\n"}},
	} {
		fsys, err := a.Migrations(tt.binding)
		if err != nil {
			t.Fatal(err)
		}
		if got := tree(t, fsys); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("migrations of %s = %q, want %q", tt.binding, got, tt.want)
		}
	}
	if _, err := a.Migrations("CARTS"); err == nil || !strings.Contains(err.Error(), `"AUDIT"`) {
		t.Errorf("Migrations(CARTS) error = %v, want one listing the D1 bindings", err)
	}
}

// TestWrangler checks that the manifest keeps every field of the
// wrangler project but its secrets' values and what only the build used,
// with paths inside the archive.
func TestWrangler(t *testing.T) {
	p := load(t, copyApp(t))
	data, _ := write(t, p)
	a, err := artifact.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	got := a.Wrangler()

	want := *p.Wrangler
	want.ConfigPath, want.Dir = "", ""
	want.Main = "worker.js"
	want.Secrets, want.SecretsFrom, want.Warnings = map[string]string{}, nil, nil
	want.Build, want.Bundle = got.Build, got.Bundle
	assets := *p.Wrangler.Assets
	assets.Directory = "assets"
	want.Assets = &assets
	want.D1Databases = append(want.D1Databases[:0:0], want.D1Databases...)
	want.D1Databases[0].MigrationsDir, want.D1Databases[0].MigrationsPattern = filepath.FromSlash("migrations/DB"), filepath.FromSlash("migrations/DB/*.sql")
	want.D1Databases[1].MigrationsDir, want.D1Databases[1].MigrationsPattern = filepath.FromSlash("migrations/AUDIT"), filepath.FromSlash("migrations/AUDIT/**/migration.sql")
	if !reflect.DeepEqual(got, &want) {
		t.Errorf("Wrangler() =\n%+v\nwant\n%+v", got, &want)
	}

	m := a.Manifest()
	if got, want := m.Project.SecretNames, []string{"API_KEY"}; !reflect.DeepEqual(got, want) {
		t.Errorf("secret_names = %q, want %q", got, want)
	}
	if m.Format != artifact.Format || m.Name != "shop" || m.Project.CPUMs != 50 {
		t.Errorf("format, name, cpu_ms = %d, %q, %d; want %d, shop, 50", m.Format, m.Name, m.Project.CPUMs, artifact.Format)
	}
}

// TestReproducible builds the artifact twice from one copy of the
// project and once from a copy elsewhere: the same bytes each time.
func TestReproducible(t *testing.T) {
	here := copyApp(t)
	first, hash := write(t, load(t, here))
	again, _ := write(t, load(t, here))
	elsewhere, hash2 := write(t, load(t, copyApp(t)))
	if !bytes.Equal(first, again) {
		t.Error("two builds of the same project differ")
	}
	if !bytes.Equal(first, elsewhere) || hash != hash2 {
		t.Errorf("builds in two directories differ (content hashes %s, %s)", hash, hash2)
	}
}

// TestNothingLocal checks that no member holds a secret's value or the
// project's path.
func TestNothingLocal(t *testing.T) {
	file := copyApp(t)
	data, _ := write(t, load(t, file))
	dir := filepath.Dir(filepath.Dir(file))
	for name, content := range members(t, data) {
		for _, bad := range []string{secretValue, dir} {
			if bytes.Contains(content, []byte(bad)) {
				t.Errorf("member %s holds %q", name, bad)
			}
		}
	}
}

func TestZipHeaders(t *testing.T) {
	data, _ := write(t, load(t, copyApp(t)))
	var names []string
	for name := range members(t, data) {
		names = append(names, name)
	}
	a, err := artifact.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"dwk-project.json"}
	for _, e := range a.Manifest().Entries {
		want = append(want, e.Name)
	}
	if len(names) != len(want) {
		t.Errorf("the archive has %d members, the manifest lists %d and itself", len(names), len(want)-1)
	}
	zr := zipReader(t, data)
	prev := ""
	for _, f := range zr.File {
		if f.Name <= prev {
			t.Errorf("member %s follows %s: not sorted", f.Name, prev)
		}
		prev = f.Name
		if len(f.Extra) != 0 || f.Flags&0x8 != 0 {
			t.Errorf("member %s has extra fields %x or a data descriptor (flags %#x)", f.Name, f.Extra, f.Flags)
		}
		if got := f.Modified.UTC().Format("2006-01-02 15:04:05"); got != "1980-01-01 00:00:00" {
			t.Errorf("member %s modified %s, want 1980-01-01 00:00:00", f.Name, got)
		}
		if f.Mode() != 0o644 {
			t.Errorf("member %s has mode %v, want -rw-r--r--", f.Name, f.Mode())
		}
	}
}

// TestAssetLinks checks that a symbolic link to a file is shipped as the
// file and one to a directory is refused, naming it.
func TestAssetLinks(t *testing.T) {
	file := copyApp(t)
	public := filepath.Join(filepath.Dir(file), "public")
	if err := os.Symlink("css/site.css", filepath.Join(public, "site.css")); err != nil {
		t.Fatal(err)
	}
	data, _ := write(t, load(t, file))
	a, err := artifact.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := fs.ReadFile(a.Assets(), "site.css"); err != nil || string(got) != "h1 { color: teal; }\n" {
		t.Errorf("site.css, a link to css/site.css: %q, %v; want the file's content", got, err)
	}

	if err := os.Symlink("css", filepath.Join(public, "styles")); err != nil {
		t.Fatal(err)
	}
	p := load(t, file)
	_, err = artifact.Write(context.Background(), p.Wrangler, p.Bundle, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "styles is not a regular file") {
		t.Errorf("Write with a link to a directory: %v, want an error naming styles", err)
	}
}
