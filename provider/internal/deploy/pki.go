package deploy

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"sort"
	"strings"
)

// pkiDir is the directory under the install dir that holds the replicas'
// TLS files, one subdirectory per content.
const pkiDir = "pki"

// PKI is a host's TLS and key files. They go to pki/<ID>/ under the install
// directory, a directory named by their content: dwk.json refers to it,
// so a change of certificates is a change of config (and a revert goes
// back to the previous directory, which is kept until a later rollout
// refers to neither).
type PKI struct {
	// ID names the directory; it must change when any file does.
	ID string
	// Files maps file names to their contents. They are written 0600.
	Files map[string][]byte
}

// PKIDir is the install-dir-relative directory of a PKI with id.
func PKIDir(id string) string { return path.Join(pkiDir, id) }

// stagePKI writes h.PKI to its directory unless a complete one is there:
// into a temp directory first, renamed into place, so a failed upload
// leaves no half-written directory that a later Stage would trust.
func (d *Deployer) stagePKI(ctx context.Context, h *Host) error {
	p := h.PKI
	if p == nil {
		return nil
	}
	if p.ID == "" || strings.ContainsAny(p.ID, "/.") {
		return fmt.Errorf("pki id %q is not a plain name", p.ID)
	}
	dir, tmp := h.path(PKIDir(p.ID)), h.path(pkiDir, ".new-"+p.ID)
	out, err := h.Target.Run(ctx, fmt.Sprintf("test -e %s && echo present || echo absent", quote(path.Join(dir, ".complete"))), nil)
	if err != nil {
		return fmt.Errorf("look for %s: %w", dir, err)
	}
	if strings.TrimSpace(string(out)) == "present" {
		return nil
	}
	if _, err := h.Target.Run(ctx, fmt.Sprintf("umask 077 && rm -rf %[1]s && mkdir -p %[1]s", quote(tmp)), nil); err != nil {
		return fmt.Errorf("prepare %s: %w", tmp, err)
	}
	names := make([]string, 0, len(p.Files))
	for n := range p.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		f := quote(path.Join(tmp, n))
		if _, err := h.Target.Run(ctx, fmt.Sprintf("umask 077 && cat > %[1]s && chmod 0600 %[1]s", f), bytes.NewReader(p.Files[n])); err != nil {
			return fmt.Errorf("write %s: %w", path.Join(dir, n), err)
		}
	}
	if _, err := h.Target.Run(ctx, fmt.Sprintf("touch %[1]s/.complete && rm -rf %[2]s && mv %[1]s %[2]s", quote(tmp), quote(dir)), nil); err != nil {
		return fmt.Errorf("install %s: %w", dir, err)
	}
	return nil
}

// prunePKI deletes pki directories that neither the active config nor
// the previous one refers to.
func (d *Deployer) prunePKI(ctx context.Context, h *Host) {
	c := h.program().ConfigFile
	cmd := fmt.Sprintf(`cd %s && [ -d %s ] || exit 0; for p in %s/*; do [ -d "$p" ] || continue; grep -qsF "/$p/" %s %s || rm -rf "$p"; done`,
		quote(h.InstallDir), pkiDir, pkiDir, quote(c), quote(c+".prev"))
	if _, err := h.Target.Run(ctx, cmd, nil); err != nil {
		d.logf(ctx, h, "could not prune old TLS files", "error", err.Error())
	}
}
