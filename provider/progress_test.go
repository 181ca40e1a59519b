package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProgressFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "progress.log")
	p, err := openProgress(f)
	if err != nil {
		t.Fatal(err)
	}
	p.line("prod", "draining replica", map[string]any{"host": "root@10.0.0.5:22", "member": "m", "error": "x"})
	p.line("prod", "replica ready", map[string]any{"host": "root@10.0.0.5:22"})
	b, _ := os.ReadFile(f)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], " dwk_fleet prod root@10.0.0.5:22: draining replica error=x") ||
		!strings.HasSuffix(lines[1], "prod root@10.0.0.5:22: replica ready") {
		t.Fatalf("progress file:\n%s", b)
	}
	off, _ := openProgress(progressOff)
	off.line("prod", "nothing", nil) // no writer: no panic, no output
	if _, err := openProgress(filepath.Join(t.TempDir(), "missing", "dir", "p.log")); err == nil {
		t.Error("a progress file in a missing directory opened")
	}
}
