package deploy

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"strings"
)

// projectsDir is the install-dir-relative directory of the Workers
// projects' artifacts.
const projectsDir = "projects"

// Project is a Workers project's artifact (a .dwkb) that a host's config
// names, by its path relative to the config (ProjectPath): it travels
// with the binary and is installed under its content hash, so a changed
// project is a new file and a changed config.
type Project struct {
	// Name is the worker's name.
	Name string
	// Hash is the artifact's content hash (hex).
	Hash string
	// Data is the artifact.
	Data []byte
}

// ProjectPath is the install-dir-relative path of the artifact whose
// content hash is hash.
func ProjectPath(hash string) string {
	id := hash
	if len(id) > 12 {
		id = id[:12]
	}
	return path.Join(projectsDir, id+".dwkb")
}

// stageProjects uploads the projects h's config names that are not on
// the host yet, each checked against its SHA-256 before it is moved into
// place, as the binary is.
func (d *Deployer) stageProjects(ctx context.Context, h *Host) error {
	for _, p := range h.Projects {
		dst := h.path(ProjectPath(p.Hash))
		out, err := h.Target.Run(ctx, fmt.Sprintf("umask 022 && mkdir -p %s && test -f %s && echo present || echo absent", h.q(projectsDir), quote(dst)), nil)
		if err != nil {
			return fmt.Errorf("prepare %s: %w", h.path(projectsDir), err)
		}
		if strings.TrimSpace(string(out)) == "present" {
			continue
		}
		sum := sha256.Sum256(p.Data)
		tmp := h.path(projectsDir, ".upload-"+path.Base(dst))
		d.logf(ctx, h, "uploading Workers project", "worker", p.Name, "dest", dst)
		if err := d.put(ctx, h, bytes.NewReader(p.Data), tmp, dst, hex.EncodeToString(sum[:]), "0644"); err != nil {
			return fmt.Errorf("project %s: %w", p.Name, err)
		}
	}
	return nil
}

// pruneProjects deletes artifacts that neither the active nor the
// previous config names.
func (d *Deployer) pruneProjects(ctx context.Context, h *Host) {
	c := h.program().ConfigFile
	cmd := fmt.Sprintf(`cd %s && [ -d %s ] || exit 0
for f in %s/*.dwkb; do [ -e "$f" ] || continue; grep -qsF "\"$f\"" %s %s || rm -f "$f"; done`,
		quote(h.InstallDir), projectsDir, projectsDir, quote(c), quote(c+".prev"))
	if _, err := h.Target.Run(ctx, cmd, nil); err != nil {
		d.logf(ctx, h, "could not prune old Workers projects", "error", err.Error())
	}
}
