package project_test

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/jsworker/artifact"
	"github.com/dwk/fleet/appliance/jsworker/project"
)

func TestIsArtifact(t *testing.T) {
	dir := t.TempDir()
	renamed := filepath.Join(dir, "build")
	if err := os.WriteFile(renamed, []byte("PK\x03\x04rest of a zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	toml := filepath.Join(dir, "wrangler.toml")
	if err := os.WriteFile(toml, []byte("name = \"x\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want bool
	}{
		{filepath.Join(dir, "app.dwkb"), true}, // by its name, even before it exists
		{filepath.Join(dir, "APP.DWKB"), true},
		{filepath.Join(dir, "app.zip"), true},
		{renamed, true}, // by its content
		{toml, false},
		{dir, false},
		{filepath.Join(dir, "missing"), false},
	}
	for _, tt := range tests {
		if got := project.IsArtifact(tt.path); got != tt.want {
			t.Errorf("IsArtifact(%s) = %t, want %t", filepath.Base(tt.path), got, tt.want)
		}
	}
}

// TestLoadArtifact loads a project from its sources and from its
// artifact, in a directory without the sources: the same worker, but for
// the secrets' values.
func TestLoadArtifact(t *testing.T) {
	src := filepath.Join(t.TempDir(), "app")
	if err := os.CopyFS(src, os.DirFS(filepath.Join("..", "artifact", "testdata", "app"))); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	fromSource, err := project.Load(ctx, filepath.Join(src, "wrangler.jsonc"), project.Options{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "shop.dwkb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	hash, err := artifact.Write(ctx, fromSource.Wrangler, fromSource.Bundle, f)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(src); err != nil {
		t.Fatal(err)
	}

	p, err := project.Load(ctx, path, project.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Source() != path || p.Hash() != hash || p.Artifact() == nil {
		t.Errorf("Source, Hash = %s, %s; want %s, %s, and an Artifact", p.Source(), p.Hash(), path, hash)
	}
	if fromSource.Source() != filepath.Join(src, "wrangler.jsonc") || fromSource.Hash() != fromSource.Bundle.Hash || fromSource.Artifact() != nil {
		t.Errorf("from source: Source, Hash = %s, %s; want the wrangler file and the bundle's hash", fromSource.Source(), fromSource.Hash())
	}
	if got, want := p.SecretNames(), []string{"API_KEY"}; !reflect.DeepEqual(got, want) {
		t.Errorf("SecretNames() = %q, want %q", got, want)
	}

	want := fromSource.Worker
	want.Bindings.Secrets = map[string]*config.Secret{} // the host binds them
	if !reflect.DeepEqual(p.Worker, want) {
		t.Errorf("Worker =\n%+v\nwant\n%+v", p.Worker, want)
	}
	gotJS, wantJS := p.JS, fromSource.JS
	gotJS.Script, wantJS.Script, gotJS.Assets, wantJS.Assets = nil, nil, nil, nil
	if !reflect.DeepEqual(gotJS, wantJS) {
		t.Errorf("JS =\n%+v\nwant\n%+v", gotJS, wantJS)
	}
	if p.JS.Script == nil || p.JS.Assets == nil {
		t.Fatal("the artifact's project has no script or no assets")
	}
	rec := httptest.NewRecorder()
	p.JS.Assets.Server.ServeHTTP(rec, httptest.NewRequest("GET", "/css/site.css", nil))
	if got := rec.Body.String(); rec.Code != 200 || got != "h1 { color: teal; }\n" {
		t.Errorf("GET /css/site.css from the artifact: %d %q", rec.Code, got)
	}

	d, err := project.Describe(path, project.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Bundle != nil || !reflect.DeepEqual(d.Worker, want) {
		t.Errorf("Describe: Bundle %v, Worker %+v; want no bundle and %+v", d.Bundle, d.Worker, want)
	}

	_, err = project.Load(ctx, path, project.Options{Env: "staging"})
	if err == nil || !strings.Contains(err.Error(), "dwk bundle --env staging") {
		t.Errorf("Load with another environment: %v, want an error saying to bundle with --env staging", err)
	}
}
