package artifact

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dwk/fleet/appliance/bindings/d1/d1migrations"
	"github.com/dwk/fleet/appliance/jsworker/bundle"
	"github.com/dwk/fleet/appliance/jsworker/wrangler"
)

// member is one file of the archive being written.
type member struct {
	name string
	data []byte
}

// Write writes the artifact of a project to out: w, the project as
// wrangler.Load resolved it, and b, its bundle (project.Load makes both).
// It reads the assets directory and the D1 migrations directories from
// disk. It returns the artifact's content hash. The same project gives
// the same bytes, in any directory.
func Write(ctx context.Context, w *wrangler.Project, b *bundle.Bundle, out io.Writer) (string, error) {
	if w == nil || b == nil {
		return "", errors.New("artifact: a project and its bundle are required (load the project with project.Load)")
	}
	cfg, err := configOf(w)
	if err != nil {
		return "", fmt.Errorf("artifact: %w", err)
	}
	m := Manifest{Format: Format, Name: w.Name, Project: cfg, BundleHash: b.Hash, Modules: []Module{}}
	members := []member{{ScriptEntry, b.Script}, {SourceMapEntry, b.SourceMap}}
	for i, mod := range b.Modules {
		name := ModulesDir + "/" + strconv.Itoa(i)
		m.Modules = append(m.Modules, Module{Entry: name, Name: mod.Name, Type: mod.Type})
		members = append(members, member{name, mod.Bytes})
	}
	if w.Assets != nil {
		files, err := assetFiles(ctx, w.Assets.Directory)
		if err != nil {
			return "", fmt.Errorf("artifact: assets: %w", err)
		}
		members = append(members, files...)
	}
	for i, d := range w.D1Databases {
		cd := cfg.D1Databases[i]
		files, err := migrationFiles(d.MigrationsDir, strings.TrimPrefix(cd.MigrationsPattern, cd.MigrationsDir+"/"), cd.MigrationsDir)
		if err != nil {
			return "", fmt.Errorf("artifact: d1_databases %s: %w", d.Binding, err)
		}
		members = append(members, files...)
	}
	for _, mb := range members {
		if !utf8.ValidString(mb.name) {
			return "", fmt.Errorf("artifact: %q is not a UTF-8 file name: rename it", mb.name)
		}
		sum := sha256.Sum256(mb.data)
		m.Entries = append(m.Entries, Entry{Name: mb.name, Size: int64(len(mb.data)), SHA256: hex.EncodeToString(sum[:])})
	}
	sortEntries(m.Entries)
	for i := 1; i < len(m.Entries); i++ {
		if m.Entries[i].Name == m.Entries[i-1].Name {
			return "", fmt.Errorf("artifact: two files would be %s", m.Entries[i].Name)
		}
	}
	if m.ContentHash, err = m.Hash(); err != nil {
		return "", fmt.Errorf("artifact: %w", err)
	}
	manifest, err := m.Encode()
	if err != nil {
		return "", fmt.Errorf("artifact: %w", err)
	}
	members = append(members, member{ManifestName, manifest})
	if err := writeZip(out, members); err != nil {
		return "", fmt.Errorf("artifact: %w", err)
	}
	return m.ContentHash, nil
}

// assetFiles reads the assets directory's files, leaving out what its
// .assetsignore names. A symbolic link to a file is read as the file;
// one to a directory is refused.
func assetFiles(ctx context.Context, dir string) ([]member, error) {
	fsys := os.DirFS(dir)
	if st, err := fs.Stat(fsys, "."); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("directory %s does not exist: create it, or fix assets.directory in the wrangler file", dir)
	}
	var rules ignoreRules
	switch text, err := fs.ReadFile(fsys, AssetsIgnoreFile); {
	case err == nil:
		rules = parseIgnore(string(text))
	case errors.Is(err, fs.ErrNotExist):
		rules = parseIgnore("")
	default:
		return nil, err
	}
	var out []member
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if name == "." {
			return nil
		}
		if rules.ignored(name, d.IsDir()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		st, err := fs.Stat(fsys, name) // follows a symbolic link
		if err != nil {
			return err
		}
		if !st.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file (a link to a directory, a socket...): replace it by the files, or name it in %s", name, AssetsIgnoreFile)
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		out = append(out, member{AssetsDir + "/" + name, data})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	return out, nil
}

// migrationFiles reads the files under src whose path matches pattern
// (a D1 database's migrations_dir and migrations_pattern) into the
// member directory dir. A missing migrations directory has none, as
// wrangler reads it.
func migrationFiles(src, pattern, dir string) ([]member, error) {
	files, err := d1migrations.Find(src, pattern)
	if errors.Is(err, d1migrations.ErrNoDir) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := make([]member, 0, len(files))
	for _, f := range files {
		data, err := os.ReadFile(f.Path)
		if err != nil {
			return nil, err
		}
		out = append(out, member{dir + "/" + f.Name, data})
	}
	return out, nil
}
