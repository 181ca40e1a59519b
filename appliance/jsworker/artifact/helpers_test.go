package artifact_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/artifact"
	"github.com/dwk/fleet/appliance/jsworker/project"
)

// secretValue is the value testdata/app's .dev.vars holds.
const secretValue = "s3cr3t-never-shipped"

// copyApp copies testdata/app into a new temporary directory and returns
// the copy's wrangler file.
func copyApp(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "app")
	if err := os.CopyFS(dst, os.DirFS(filepath.Join("testdata", "app"))); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dst, "wrangler.jsonc")
}

// load loads the project of a wrangler file.
func load(t *testing.T, wranglerFile string) *project.Project {
	t.Helper()
	p, err := project.Load(context.Background(), wranglerFile, project.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// write writes p's artifact and returns its bytes and content hash.
func write(t *testing.T, p *project.Project) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	hash, err := artifact.Write(context.Background(), p.Wrangler, p.Bundle, &buf)
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), hash
}

func zipReader(t *testing.T, data []byte) *zip.Reader {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	return zr
}

// members reads every member of a zip archive, uncompressed, by name.
func members(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	zr := zipReader(t, data)
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = b
	}
	return out
}

// rezip writes a zip archive of files, in the order of their names.
func rezip(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(files[n])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// tree lists the regular files of fsys with their contents.
func tree(t *testing.T, fsys fs.FS) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, name)
		out[name] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
