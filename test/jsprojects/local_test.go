package jsprojects

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dwk/fleet/test/procs"
)

// TestLocal runs each project alone in local mode, as `dwk serve --config
// <project>/wrangler.*` runs it on a developer's machine (a project with
// service bindings runs from a dwk.json naming it and their targets).
func TestLocal(t *testing.T) {
	for _, p := range projects {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			p.test(t, serveLocal(t, p))
		})
	}
}

// serveLocal starts `dwk serve` in local mode for p, with a fresh data
// directory whose D1 databases p.migrate names are migrated first.
func serveLocal(t *testing.T, p project) *site {
	t.Helper()
	bin := procs.Binary(t)
	wf := wranglerFile(t, projectDir(t, p.name))
	cfg := wf
	if len(p.with) > 0 {
		cfg = localConfig(t, p)
	}
	data := t.TempDir()
	for _, db := range p.migrate {
		runDwk(t, nil, "d1", "migrations", "apply", db, "--local", "--config", wf, "--data-dir", data)
	}
	proc := procs.Start(t, "dwk serve "+p.name, bin, nil, "serve", "--config", cfg, "--data-dir", data, "--listen", "127.0.0.1:0")
	base := proc.WaitFor(readyRE, 3*time.Minute)[1]
	return &site{doors: []string{base}, logs: proc.Output}
}

// localConfig writes a dwk.json that serves p on "/" and the projects of
// p.with beside it, on their default routes.
func localConfig(t *testing.T, p project) string {
	t.Helper()
	type worker struct {
		Project string `json:"project"`
	}
	var c struct {
		Workers []worker `json:"workers"`
	}
	for _, name := range append([]string{p.name}, p.with...) {
		c.Workers = append(c.Workers, worker{Project: projectDir(t, name)})
	}
	b, err := json.MarshalIndent(c, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "dwk.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
