package artifact_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/artifact"
)

// TestTamper changes a good artifact in the ways a corrupted or edited
// one differs, and checks that Read refuses each, naming what is wrong.
func TestTamper(t *testing.T) {
	good, _ := write(t, load(t, copyApp(t)))
	manifest := func(t *testing.T, files map[string][]byte) artifact.Manifest {
		var m artifact.Manifest
		if err := json.Unmarshal(files[artifact.ManifestName], &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	// rehash stores m with a content hash that matches it, as an editor
	// who knows the format would.
	rehash := func(t *testing.T, files map[string][]byte, m artifact.Manifest) {
		var err error
		if m.ContentHash, err = m.Hash(); err != nil {
			t.Fatal(err)
		}
		if files[artifact.ManifestName], err = m.Encode(); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		change func(t *testing.T, files map[string][]byte)
		want   []string // in the error
	}{
		{"an asset changed", func(t *testing.T, files map[string][]byte) {
			files["assets/css/site.css"] = []byte("h1 { color: red; }\n")
		}, []string{"member assets/css/site.css has", "SHA-256"}},
		{"the script changed", func(t *testing.T, files map[string][]byte) {
			files["worker.js"] = append(files["worker.js"], ';')
		}, []string{"member worker.js has"}},
		{"a migration removed", func(t *testing.T, files map[string][]byte) {
			delete(files, "migrations/DB/0002_price.sql")
		}, []string{"member migrations/DB/0002_price.sql", "is missing"}},
		{"a member added", func(t *testing.T, files map[string][]byte) {
			files["assets/evil.js"] = []byte("alert(1)")
		}, []string{"member assets/evil.js is not listed"}},
		{"a var edited", func(t *testing.T, files map[string][]byte) {
			files[artifact.ManifestName] = bytes.Replace(files[artifact.ManifestName], []byte(`"hello"`), []byte(`"howdy"`), 1)
		}, []string{"dwk-project.json: content_hash", "changed after dwk bundle wrote it"}},
		{"an entry's hash edited, content hash recomputed", func(t *testing.T, files map[string][]byte) {
			files["worker.js.map"] = []byte("{}")
			m := manifest(t, files)
			for i, e := range m.Entries {
				if e.Name == "worker.js.map" {
					m.Entries[i].Size = 2
				}
			}
			rehash(t, files, m)
		}, []string{"member worker.js.map has 2 bytes"}},
		{"a member outside its place", func(t *testing.T, files map[string][]byte) {
			m := manifest(t, files)
			files["etc/passwd"] = []byte("x")
			m.Entries = append(m.Entries, artifact.Entry{Name: "etc/passwd", Size: 1, SHA256: "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"})
			rehash(t, files, m)
		}, []string{"entry etc/passwd has no place"}},
		{"a newer format", func(t *testing.T, files map[string][]byte) {
			files[artifact.ManifestName] = bytes.Replace(files[artifact.ManifestName], []byte(`"format": 1`), []byte(`"format": 2`), 1)
		}, []string{"artifact format 2", "this dwk reads format 1"}},
		{"no manifest", func(t *testing.T, files map[string][]byte) {
			delete(files, artifact.ManifestName)
		}, []string{"has no dwk-project.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := members(t, good)
			tt.change(t, files)
			_, err := artifact.Read(rezip(t, files))
			if err == nil {
				t.Fatal("Read accepted it")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestFlippedByte corrupts the stored bytes of one member, as a bad disk
// or a truncated copy would: Open names the member.
func TestFlippedByte(t *testing.T) {
	good, _ := write(t, load(t, copyApp(t)))
	for _, f := range zipReader(t, good).File {
		if f.Name != "worker.js" {
			continue
		}
		off, err := f.DataOffset()
		if err != nil {
			t.Fatal(err)
		}
		bad := append([]byte(nil), good...)
		bad[off+int64(f.CompressedSize64)/2] ^= 0xff
		path := filepath.Join(t.TempDir(), "app.dwkb")
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = artifact.Open(path)
		if !errors.Is(err, artifact.ErrCorrupt) || !strings.Contains(err.Error(), "member worker.js") || !strings.Contains(err.Error(), path) {
			t.Errorf("Open of an artifact with a flipped byte in worker.js: %v; want ErrCorrupt naming %s and worker.js", err, path)
		}
		return
	}
	t.Fatal("no worker.js in the archive")
}

func TestNotAnArtifact(t *testing.T) {
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"a text file", []byte("name = \"x\"\n"), "not an artifact"},
		{"another zip", rezip(t, map[string][]byte{"README": []byte("hi")}), "has no dwk-project.json"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := artifact.Read(tt.data)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Read: %v, want an error saying %q", err, tt.want)
			}
		})
	}
}
