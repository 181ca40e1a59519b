package artifact

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dwk/fleet/appliance/jsworker/bundle"
	"github.com/dwk/fleet/appliance/jsworker/wrangler"
)

// ErrCorrupt is wrapped by the errors of Open and Read for an archive
// whose content does not match its manifest: a member changed, missing
// or added, or a manifest whose content hash does not match it.
var ErrCorrupt = errors.New("corrupt artifact")

// Artifact is an opened, verified artifact. It holds the archive in
// memory, so what it serves is what was verified, whatever happens to the
// file afterwards. It is safe for concurrent use.
type Artifact struct {
	path     string
	manifest Manifest
	zr       *zip.Reader
	bundle   *bundle.Bundle
}

// Open reads the artifact at path and verifies it (see Read).
func Open(path string) (*Artifact, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open artifact: %w", err)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("open artifact: %w", err)
	}
	a, err := Read(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", abs, err)
	}
	a.path = abs
	return a, nil
}

// Read verifies the artifact whose bytes are data and returns it: the
// manifest's format and content hash, then every member's size and
// SHA-256 against the manifest, and that the archive has exactly the
// members the manifest lists. An error names the member at fault.
func Read(data []byte) (*Artifact, error) {
	a, err := read(data)
	if errors.Is(err, ErrCorrupt) {
		return nil, fmt.Errorf("%w (bundle the project again, or copy the artifact again)", err)
	}
	return a, err
}

func read(data []byte) (*Artifact, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("not an artifact (a zip archive written by dwk bundle): %w", err)
	}
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		if _, dup := files[f.Name]; dup {
			return nil, fmt.Errorf("%w: member %s is in the archive twice", ErrCorrupt, f.Name)
		}
		files[f.Name] = f
	}
	mf := files[ManifestName]
	if mf == nil {
		return nil, fmt.Errorf("not an artifact: the archive has no %s (dwk bundle writes it)", ManifestName)
	}
	raw, err := readMember(mf)
	if err != nil {
		return nil, err
	}
	m, err := decodeManifest(raw)
	if err != nil {
		return nil, err
	}
	a := &Artifact{manifest: m, zr: zr}
	contents := map[string][]byte{}
	listed := map[string]bool{ManifestName: true}
	for _, e := range m.Entries {
		listed[e.Name] = true
		f := files[e.Name]
		if f == nil {
			return nil, fmt.Errorf("%w: member %s, which %s lists, is missing", ErrCorrupt, e.Name, ManifestName)
		}
		data, err := readMember(f)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); int64(len(data)) != e.Size || got != e.SHA256 {
			return nil, fmt.Errorf("%w: member %s has %d bytes with SHA-256 %s; %s says %d bytes with SHA-256 %s", ErrCorrupt, e.Name, len(data), got, ManifestName, e.Size, e.SHA256)
		}
		if !strings.HasPrefix(e.Name, AssetsDir+"/") && !strings.HasPrefix(e.Name, MigrationsDir+"/") {
			contents[e.Name] = data // the bundle's; assets and migrations are read on demand
		}
	}
	for _, f := range zr.File {
		if !listed[f.Name] {
			return nil, fmt.Errorf("%w: member %s is not listed in %s", ErrCorrupt, f.Name, ManifestName)
		}
	}
	if err := m.checkPlaces(); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, ManifestName, err)
	}
	b := &bundle.Bundle{Script: contents[ScriptEntry], SourceMap: contents[SourceMapEntry], Hash: m.BundleHash}
	for _, mod := range m.Modules {
		b.Modules = append(b.Modules, bundle.Module{Name: mod.Name, Type: mod.Type, Bytes: contents[mod.Entry]})
	}
	a.bundle = b
	return a, nil
}

// readMember reads a member whole; the zip reader checks its CRC-32.
func readMember(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: member %s: %v", ErrCorrupt, f.Name, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		return nil, fmt.Errorf("%w: member %s: %v", ErrCorrupt, f.Name, err)
	}
	return data, nil
}

// decodeManifest reads and checks the manifest: its format, then, read
// strictly, its content hash.
func decodeManifest(raw []byte) (Manifest, error) {
	var head struct {
		Format int `json:"format"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return Manifest{}, fmt.Errorf("%w: %s: %v", ErrCorrupt, ManifestName, err)
	}
	if head.Format != Format {
		return Manifest{}, fmt.Errorf("%s: artifact format %d, but this dwk reads format %d: bundle the project again with this dwk, or serve it with the dwk that bundled it", ManifestName, head.Format, Format)
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Manifest{}, fmt.Errorf("%w: %s: %v", ErrCorrupt, ManifestName, err)
	}
	want, err := m.Hash()
	if err != nil {
		return Manifest{}, err
	}
	if m.ContentHash != want {
		return Manifest{}, fmt.Errorf("%w: %s: content_hash is %q but the manifest hashes to %s: it was changed after dwk bundle wrote it", ErrCorrupt, ManifestName, m.ContentHash, want)
	}
	return m, nil
}

// checkPlaces verifies that every member is where the format puts it
// and that the bundle's members are there.
func (m *Manifest) checkPlaces() error {
	if err := m.Project.check(); err != nil {
		return err
	}
	required := []string{ScriptEntry, SourceMapEntry}
	for i, mod := range m.Modules {
		if want := ModulesDir + "/" + strconv.Itoa(i); mod.Entry != want {
			return fmt.Errorf("modules[%d].entry is %q, want %q", i, mod.Entry, want)
		}
		required = append(required, mod.Entry)
	}
	allowed := map[string]bool{}
	for _, name := range required {
		allowed[name] = true
	}
	var dirs []string
	if m.Project.Assets != nil {
		dirs = append(dirs, AssetsDir+"/")
	}
	for _, d := range m.Project.D1Databases {
		dirs = append(dirs, d.MigrationsDir+"/")
	}
	seen := map[string]bool{}
	for _, e := range m.Entries {
		seen[e.Name] = true
		if allowed[e.Name] || hasAnyPrefix(e.Name, dirs) {
			if !fs.ValidPath(e.Name) {
				return fmt.Errorf("entry %q is not a valid path", e.Name)
			}
			continue
		}
		return fmt.Errorf("entry %s has no place in an artifact of this project", e.Name)
	}
	for _, name := range required {
		if !seen[name] {
			return fmt.Errorf("the bundle's %s is not among the entries", name)
		}
	}
	return nil
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// Path is the absolute path the artifact was opened from; empty for one
// Read from bytes.
func (a *Artifact) Path() string { return a.path }

// Hash is the artifact's content hash: Manifest().ContentHash, what dwk
// bundle prints.
func (a *Artifact) Hash() string { return a.manifest.ContentHash }

// Manifest is the artifact's manifest. It shares its slices and maps with
// the artifact: do not modify them.
func (a *Artifact) Manifest() Manifest { return a.manifest }

// Bundle is the project's bundle, as bundling it gave it, without Inputs
// or Warnings. It is shared: do not modify it.
func (a *Artifact) Bundle() *bundle.Bundle { return a.bundle }

// Wrangler is the manifest's project as a wrangler.Project: its
// ConfigPath and Dir are the artifact's Path, and its Main, assets
// directory and migrations directories name members inside it
// (Path + "/worker.js"); they are not files on disk. Its Secrets are
// empty. Each call returns a new Project.
func (a *Artifact) Wrangler() *wrangler.Project {
	return wranglerOf(a.manifest.Project, a.manifest.Name, a.path)
}

// Assets are the assets directory's files, rooted at the archive's
// assets/; nil when the worker has no assets.
func (a *Artifact) Assets() fs.FS {
	if a.manifest.Project.Assets == nil {
		return nil
	}
	return a.dir(AssetsDir)
}

// Migrations are the migration files of the D1 database bound as
// binding, rooted at its migrations directory, named as
// d1migrations.File names them. It holds no file when the project had
// none.
func (a *Artifact) Migrations(binding string) (fs.FS, error) {
	var bound []string
	for _, d := range a.manifest.Project.D1Databases {
		if d.Binding == binding {
			return a.dir(d.MigrationsDir), nil
		}
		bound = append(bound, d.Binding)
	}
	return nil, fmt.Errorf("artifact %s binds no D1 database as %q; its D1 bindings are %q", a.manifest.Name, binding, bound)
}

// dir is the archive's directory dir as an fs.FS: an empty directory
// when no member is inside it.
func (a *Artifact) dir(dir string) fs.FS {
	for _, e := range a.manifest.Entries {
		if strings.HasPrefix(e.Name, dir+"/") {
			sub, err := fs.Sub(a.zr, dir)
			if err == nil {
				return sub
			}
		}
	}
	return emptyDir{}
}
