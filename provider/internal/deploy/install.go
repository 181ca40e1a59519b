package deploy

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
)

// markerFile marks an install directory as written by the deployer; Remove
// deletes only directories that carry it.
const markerFile = ".dwk-install"

// Stage puts the binary, the Workers projects and the new config on the
// host without touching the running replica: the binary and each project
// are uploaded unless a file with the same content is there already (to a
// temp file, checked against its sha256, renamed into place), the config
// goes to dwk.json.new (0600), and the new binary validates it. A failed Stage leaves the
// running replica as it was.
func (d *Deployer) Stage(ctx context.Context, h *Host, a Artifact) error {
	mkdir := fmt.Sprintf("umask 022 && mkdir -p %s && touch %s && test -x %s && echo present || echo absent",
		h.q("bin"), h.q(markerFile), quote(h.binary(a)))
	out, err := h.Target.Run(ctx, mkdir, nil)
	if err != nil {
		return fmt.Errorf("prepare %s: %w", h.InstallDir, err)
	}
	if strings.TrimSpace(string(out)) != "present" {
		if err := d.upload(ctx, h, a); err != nil {
			return err
		}
	}
	if err := d.stagePKI(ctx, h); err != nil {
		return err
	}
	if err := d.stageProjects(ctx, h); err != nil {
		return err
	}
	staged := h.config(".new")
	write := fmt.Sprintf("umask 077 && cat > %s && chmod 0600 %s", quote(staged), quote(staged))
	if _, err := h.Target.Run(ctx, write, bytes.NewReader(h.Config)); err != nil {
		return fmt.Errorf("write %s: %w", staged, err)
	}
	p := h.program()
	if _, err := h.Target.Run(ctx, quote(h.binary(a))+" "+commandLine(p.Check, staged), nil); err != nil {
		return fmt.Errorf("dwk %s rejected the rendered config: %w", strings.Join(p.Check, " "), err)
	}
	d.event(ctx, h, EventInstall, "dwk-"+a.ID())
	return nil
}

// upload puts the binary on the host (see put).
func (d *Deployer) upload(ctx context.Context, h *Host, a Artifact) error {
	f, err := os.Open(a.Path)
	if err != nil {
		return fmt.Errorf("artifact: %w", err)
	}
	defer f.Close()
	dst := h.binary(a)
	d.logf(ctx, h, "uploading dwk binary", "artifact", a.Path, "dest", dst)
	if err := d.put(ctx, h, f, h.path("bin", ".upload-"+a.ID()), dst, a.SHA256, "0755"); err != nil {
		return fmt.Errorf("upload %s: %w", a.Path, err)
	}
	return nil
}

// put writes r to tmp on the host and checks its SHA-256 against sha
// before it is given mode and moved to dst: with the host's sha256sum,
// shasum or openssl, whichever it has; with none of them, the file is
// read back and hashed here. A mismatch removes the upload and fails.
func (d *Deployer) put(ctx context.Context, h *Host, r io.Reader, tmp, dst, sha, mode string) error {
	out, err := h.Target.Run(ctx, fmt.Sprintf("cat > %[1]s && %[2]s", quote(tmp), hashCommand(quote(tmp))), r)
	if err != nil {
		return fmt.Errorf("upload to %s: %w", dst, err)
	}
	got := strings.TrimSpace(string(out))
	if got == noHashTool {
		d.logf(ctx, h, "the host has no sha256sum, shasum or openssl; reading the upload back to check it")
		back, err := h.Target.Run(ctx, "cat "+quote(tmp), nil)
		if err != nil {
			return fmt.Errorf("read back %s to check it: %w", tmp, err)
		}
		sum := sha256.Sum256(back)
		got = hex.EncodeToString(sum[:])
	}
	if !strings.EqualFold(got, sha) {
		_, _ = h.Target.Run(ctx, "rm -f "+quote(tmp), nil)
		return fmt.Errorf("upload to %s: corrupted on the way (sha256 %s on the host, %s here); the upload was removed, apply again", dst, got, sha)
	}
	if _, err := h.Target.Run(ctx, fmt.Sprintf("chmod %[3]s %[1]s && mv -f %[1]s %[2]s", quote(tmp), quote(dst), mode), nil); err != nil {
		return fmt.Errorf("install %s: %w", dst, err)
	}
	return nil
}

// quoteOrEmpty is s quoted, or nothing for "".
func quoteOrEmpty(s string) string {
	if s == "" {
		return ""
	}
	return quote(s)
}

// noHashTool is what hashCommand prints when the host has no tool.
const noHashTool = "no-sha256-tool"

// hashCommand prints the SHA-256 (hex) of file with the first tool the
// host has, or noHashTool.
func hashCommand(file string) string {
	return fmt.Sprintf(`if command -v sha256sum >/dev/null 2>&1; then s=$(sha256sum %[1]s); `+
		`elif command -v shasum >/dev/null 2>&1; then s=$(shasum -a 256 %[1]s); `+
		`elif command -v openssl >/dev/null 2>&1; then s=$(openssl dgst -sha256 -r %[1]s); `+
		`else s=%[2]s; fi && echo "${s%%%% *}"`, file, noHashTool)
}

// InstalledSHA256 is the sha256 (hex) of the binary <install_dir>/current
// points at, computed on the host.
func (d *Deployer) InstalledSHA256(ctx context.Context, h *Host) (string, error) {
	out, err := h.Target.Run(ctx, hashCommand(h.q("current")), nil)
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", h.path("current"), err)
	}
	sum := strings.TrimSpace(string(out))
	if sum == noHashTool {
		back, err := h.Target.Run(ctx, "cat "+h.q("current"), nil)
		if err != nil {
			return "", fmt.Errorf("read %s to hash it: %w", h.path("current"), err)
		}
		b := sha256.Sum256(back)
		sum = hex.EncodeToString(b[:])
	}
	return sum, nil
}

// activate makes the staged binary and config the active ones, keeping the
// previous pair as current.prev and dwk.json.prev for Revert. The replica
// must be stopped.
func (d *Deployer) activate(ctx context.Context, h *Host, a Artifact) error {
	cmd := fmt.Sprintf(`cd %s && c=%s &&
if [ -e "$c" ]; then cp -p "$c" "$c.prev"; fi &&
if [ -L current ]; then ln -sfn "$(readlink current)" current.prev; fi &&
mv -f "$c.new" "$c" &&
ln -sfn %s current`, quote(h.InstallDir), quote(h.program().ConfigFile), quote("bin/dwk-"+a.ID()))
	if _, err := h.Target.Run(ctx, cmd, nil); err != nil {
		return fmt.Errorf("activate dwk-%s: %w", a.ID(), err)
	}
	return nil
}

// restorePrevious puts current.prev and dwk.json.prev back. It reports
// false when there is nothing to restore (a first install).
func (d *Deployer) restorePrevious(ctx context.Context, h *Host) (bool, error) {
	cmd := fmt.Sprintf(`cd %s && c=%s &&
if [ ! -L current.prev ] || [ ! -e "$c.prev" ]; then echo none; exit 0; fi &&
ln -sfn "$(readlink current.prev)" current && cp -p "$c.prev" "$c" && echo restored`, quote(h.InstallDir), quote(h.program().ConfigFile))
	out, err := h.Target.Run(ctx, cmd, nil)
	if err != nil {
		return false, fmt.Errorf("restore previous binary and config: %w", err)
	}
	return strings.TrimSpace(string(out)) == "restored", nil
}

// prune deletes binaries other than the active and the previous one, and
// TLS files neither config refers to.
func (d *Deployer) prune(ctx context.Context, h *Host) {
	d.prunePKI(ctx, h)
	d.pruneProjects(ctx, h)
	cmd := fmt.Sprintf(`cd %s/bin && keep1=$(basename "$(readlink ../current 2>/dev/null)") && keep2=$(basename "$(readlink ../current.prev 2>/dev/null)");
for f in dwk-*; do [ -e "$f" ] || continue; [ "$f" = "$keep1" ] || [ "$f" = "$keep2" ] || rm -f "$f"; done`, quote(h.InstallDir))
	if _, err := h.Target.Run(ctx, cmd, nil); err != nil {
		d.logf(ctx, h, "could not prune old binaries", "error", err.Error())
	}
}

// removeFiles deletes everything the deployer put in the install
// directory, then the directory if it is empty. A directory without the
// marker file is left alone. With KeepData the data directory stays, and
// so do the marker and the install directory when the data is in it.
func (d *Deployer) removeFiles(ctx context.Context, h *Host) error {
	data, marker := h.dataDir(), markerFile
	if h.KeepData {
		data = ""
		if strings.HasPrefix(h.dataDir(), h.InstallDir+"/") {
			marker = ""
		}
	}
	c := h.program().ConfigFile
	cmd := fmt.Sprintf(`d=%s
[ -d "$d" ] || exit 0
[ -e "$d/%s" ] || { echo "not removing $d: it has no %s marker, so dwk did not install it" >&2; exit 0; }
cd "$d" && rm -rf bin pki projects current current.prev %s %s %s dwk.pid .dwk.pid.tmp dwk.log deploy.log %s %s && cd / && rmdir "$d" 2>/dev/null || true`,
		quote(h.InstallDir), markerFile, markerFile, quote(c), quote(c+".new"), quote(c+".prev"), quoteOrEmpty(data), quoteOrEmpty(marker))
	if _, err := h.Target.Run(ctx, cmd, nil); err != nil {
		return fmt.Errorf("remove %s: %w", h.InstallDir, err)
	}
	return nil
}
