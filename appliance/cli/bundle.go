package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/dwk/fleet/appliance/jsworker/project"
)

func init() {
	Register(Command{Name: "bundle", Short: "build a Workers project into one artifact (.dwkb) that dwk serves without Node.js or sources", Run: runBundle})
}

const bundleAbout = `Builds the Workers project in DIR (default: this directory) or of a wrangler file into one artifact: a zip
holding the manifest dwk-project.json (the resolved wrangler configuration, every file's SHA-256, the
content hash), the bundled worker.js and its source map, the bundle's Data and CompiledWasm modules, the
assets (less what .assetsignore names) and each D1 database's migrations. It runs the project's build
command first. Secrets are never in an artifact: the manifest names them, and the host binds them
(dwk.json's workers[].bindings.secrets).

Prints the artifact's content hash. The same project gives the same bytes, wherever it is built.
Serve an artifact with 'dwk serve --config FILE.dwkb', or name it in dwk.json's workers[].project;
inspect one with 'unzip -l FILE.dwkb' and 'unzip -p FILE.dwkb dwk-project.json'. See docs/artifact.md.`

func runBundle(args []string, stdout, stderr io.Writer) int {
	const name = "bundle"
	fs := newFlagSet(name, "[DIR|WRANGLER_FILE] -o FILE [--env NAME]", bundleAbout, stderr)
	out := fs.String("o", "", "the artifact to write, such as app.dwkb (required); replaced whole, never half written")
	env := fs.String("env", "", "the wrangler environment to build (wrangler's --env)")
	pos, code := parseArgs(fs, args, 0, 1)
	if code >= 0 {
		return code
	}
	if *out == "" {
		fmt.Fprintln(stderr, "dwk bundle: -o FILE is required: the artifact to write, such as app.dwkb")
		fs.Usage()
		return 2
	}
	path := "."
	if len(pos) == 1 {
		path = pos[0]
	}
	file, err := project.Resolve("", path)
	if err != nil {
		return fail(stderr, name, err)
	}
	ctx, cancel := commandContext()
	defer cancel()
	var p *project.Project
	hash, size, err := writeArtifact(*out, func(w io.Writer) (hash string, err error) {
		p, hash, err = project.WriteArtifact(ctx, file, project.Options{Env: *env, BuildLog: stderr}, w)
		return hash, err
	})
	if err != nil {
		return fail(stderr, name, err)
	}
	for _, w := range p.Wrangler.Warnings {
		fmt.Fprintf(stderr, "dwk bundle: warning: %s\n", w)
	}
	fmt.Fprintf(stderr, "dwk bundle: wrote %s (%d bytes) from %s\n", *out, size, file)
	fmt.Fprintln(stdout, hash)
	return 0
}

// writeArtifact writes path through a temporary file beside it, renamed
// over path once complete, and returns write's hash and the file's size.
func writeArtifact(path string, write func(io.Writer) (string, error)) (string, int64, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return "", 0, err
	}
	defer os.Remove(f.Name()) // a no-op once renamed
	hash, err := write(f)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", 0, err
	}
	st, err := os.Stat(f.Name())
	if err != nil {
		return "", 0, err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return "", 0, err
	}
	return hash, st.Size(), nil
}
