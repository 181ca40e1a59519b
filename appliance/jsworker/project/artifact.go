package project

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dwk/fleet/appliance/jsworker"
	"github.com/dwk/fleet/appliance/jsworker/artifact"
)

// zipMagic is how a zip archive's first member begins.
const zipMagic = "PK\x03\x04"

// IsArtifact reports whether path names an artifact (what dwk bundle
// writes) rather than a wrangler file: its name ends in .dwkb or .zip, or
// the file begins as a zip archive does, so a renamed artifact is one
// still. Load and Describe take either.
func IsArtifact(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case artifact.Ext, ".zip":
		return true
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(zipMagic))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == zipMagic
}

// describeArtifact opens and verifies the artifact at path and describes
// its project, as Describe does a wrangler file's.
func describeArtifact(path string, opts Options) (*Project, error) {
	a, err := artifact.Open(path)
	if err != nil {
		return nil, err
	}
	w := a.Wrangler()
	if opts.Env != "" && opts.Env != w.Env {
		built := "the top level"
		if w.Env != "" {
			built = fmt.Sprintf("the environment %q", w.Env)
		}
		return nil, fmt.Errorf("%s was bundled for %s, not the environment %q: bundle the project again with dwk bundle --env %s, or leave the environment out", w.ConfigPath, built, opts.Env, opts.Env)
	}
	p := &Project{Wrangler: w, art: a}
	if err := p.describe(); err != nil {
		return nil, fmt.Errorf("%s: %w", w.ConfigPath, err)
	}
	return p, nil
}

// loadArtifact is Load for an artifact: its bundle compiled, its assets
// served from the archive.
func loadArtifact(path string, opts Options) (*Project, error) {
	p, err := describeArtifact(path, opts)
	if err != nil {
		return nil, err
	}
	p.Bundle = p.art.Bundle()
	s, err := jsworker.Compile(p.Bundle)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", p.Wrangler.ConfigPath, p.Wrangler.Name, err)
	}
	p.JS.Script = s
	if err := p.finish(p.art.Assets(), opts); err != nil {
		return nil, err
	}
	return p, nil
}

// Source is where p was loaded from: its wrangler file, or its artifact.
func (p *Project) Source() string { return p.Wrangler.ConfigPath }

// Hash names the build p runs: for a project loaded from an artifact, the
// artifact's content hash (what dwk bundle printed); otherwise its
// bundle's Hash. Empty for a wrangler file's Project from Describe, which
// has no code.
func (p *Project) Hash() string {
	switch {
	case p.art != nil:
		return p.art.Hash()
	case p.Bundle != nil:
		return p.Bundle.Hash
	}
	return ""
}

// Artifact is the artifact p was loaded from; nil for a wrangler file.
func (p *Project) Artifact() *artifact.Artifact { return p.art }

// SecretNames are the secrets p's worker reads whose values p does not
// hold, sorted: for a project loaded from an artifact, the names its
// manifest records (secret_names and required_secrets), which the host
// binds (dwk.json's workers[].bindings.secrets); nil for a wrangler file,
// whose secrets files hold the values.
func (p *Project) SecretNames() []string {
	if p.art == nil {
		return nil
	}
	c := p.art.Manifest().Project
	seen := map[string]bool{}
	var out []string
	for _, name := range append(append([]string(nil), c.SecretNames...), c.RequiredSecrets...) {
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
