package deploy

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// bareHost is a Target whose commands run with a PATH holding only the
// tools named, like a minimal host without sha256sum.
type bareHost struct {
	Local
	path string
}

func newBareHost(t *testing.T, tools ...string) bareHost {
	t.Helper()
	dir := t.TempDir()
	for _, tool := range tools {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("%s is not installed", tool)
		}
		if err := os.Symlink(p, filepath.Join(dir, tool)); err != nil {
			t.Fatal(err)
		}
	}
	return bareHost{path: dir}
}

func (b bareHost) Run(ctx context.Context, cmd string, stdin io.Reader) ([]byte, error) {
	c := exec.CommandContext(ctx, "/bin/sh", "-c", cmd)
	c.Env = []string{"PATH=" + b.path}
	var stdout, stderr bytes.Buffer
	c.Stdin, c.Stdout, c.Stderr = stdin, &stdout, &stderr
	if err := c.Run(); err != nil {
		return stdout.Bytes(), &CommandError{Err: err, Stderr: stderr.String()}
	}
	return stdout.Bytes(), nil
}

// artifact writes content to a file and describes it with sum (its own
// SHA-256 when sum is "").
func artifact(t *testing.T, content, sum string) Artifact {
	t.Helper()
	p := filepath.Join(t.TempDir(), "dwk")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if sum == "" {
		s := sha256.Sum256([]byte(content))
		sum = hex.EncodeToString(s[:])
	}
	return Artifact{Path: p, SHA256: sum}
}

func TestUploadIsCheckedWhateverTheHostHas(t *testing.T) {
	basic := []string{"cat", "chmod", "mv", "rm"}
	for name, tools := range map[string][]string{
		"sha256sum": append([]string{"sha256sum"}, basic...),
		"no tool":   basic,
		"openssl":   append([]string{"openssl"}, basic...),
	} {
		t.Run(name, func(t *testing.T) {
			h := &Host{InstallDir: t.TempDir(), Target: newBareHost(t, tools...)}
			os.MkdirAll(filepath.Join(h.InstallDir, "bin"), 0o755)
			a := artifact(t, "the binary", "")
			if err := New().upload(context.Background(), h, a); err != nil {
				t.Fatalf("upload: %v", err)
			}
			got, err := os.ReadFile(h.binary(a))
			if err != nil || string(got) != "the binary" {
				t.Fatalf("installed %q, %v", got, err)
			}
		})
	}
}

func TestCorruptedUploadIsRefusedAndRemoved(t *testing.T) {
	for name, tools := range map[string][]string{
		"sha256sum": {"sha256sum", "cat", "chmod", "mv", "rm"},
		"no tool":   {"cat", "chmod", "mv", "rm"},
	} {
		t.Run(name, func(t *testing.T) {
			h := &Host{InstallDir: t.TempDir(), Target: newBareHost(t, tools...)}
			os.MkdirAll(filepath.Join(h.InstallDir, "bin"), 0o755)
			a := artifact(t, "the binary", strings.Repeat("ab", 32))
			err := New().upload(context.Background(), h, a)
			if err == nil || !strings.Contains(err.Error(), "corrupted on the way") {
				t.Fatalf("upload of a mismatching file: %v", err)
			}
			left, _ := os.ReadDir(filepath.Join(h.InstallDir, "bin"))
			if len(left) != 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}
