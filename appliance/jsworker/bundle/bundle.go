package bundle

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/evanw/esbuild/pkg/api"
)

// ScriptName is the file name the script is built as: its source map is
// ScriptName + ".map", which the script's last line names.
const ScriptName = "worker.js"

// GlobalName is the global variable running the script sets to the
// entry module's exports.
const GlobalName = "__dwk_entry"

// ImportFunc is the global function a virtual module's stub calls with
// its specifier; the runtime defines it before running the script.
const ImportFunc = "__dwk_import"

// Bundle is a Workers project as one script.
type Bundle struct {
	// Script is the bundled script. Run as a classic script at global
	// scope it sets GlobalName to the entry module's exports (undefined for
	// a service-worker script). Its last line is
	// "//# sourceMappingURL=" + ScriptName + ".map".
	Script []byte
	// SourceMap maps Script back to the project's files; its sources are
	// relative to Dir (virtual modules read "namespace:specifier") and it
	// has no sourcesContent.
	SourceMap []byte
	// Modules are the Data and CompiledWasm modules, which the script asks
	// the runtime for as ModulePrefix + index, ordered by Name.
	Modules []Module
	// Inputs are the absolute paths of every file the bundle read, sorted,
	// for a watcher.
	Inputs []string
	// Warnings are esbuild's warnings.
	Warnings []Message
	// Hash is the hex SHA-256 of Script, SourceMap and Modules: the same
	// project gives the same Hash, wherever it lies.
	Hash string
}

// Module is a module the runtime builds from bytes.
type Module struct {
	// Name is the file's path relative to Dir, slash-separated.
	Name string
	// Type is RuleData (the runtime returns an ArrayBuffer) or
	// RuleCompiledWasm (a WebAssembly.Module).
	Type string
	// Bytes is the file's content.
	Bytes []byte
}

// Build runs the build command, if any, then bundles the project. An
// error esbuild reports comes back as a *BuildError.
func Build(ctx context.Context, opts Options) (*Bundle, error) {
	o, rules, err := opts.normalize()
	if err != nil {
		return nil, err
	}
	if o.Build != nil && o.Build.Command != "" {
		if err := runCommand(ctx, o.Dir, *o.Build, o.Log); err != nil {
			return nil, err
		}
	}
	o.Entry = within(o.Dir, o.Entry) // the build command may have made it
	if st, err := os.Stat(o.Entry); err != nil || st.IsDir() {
		return nil, fmt.Errorf("bundle: entry %s is not a file", o.Entry)
	}
	r := &resolver{
		dir:        o.Dir,
		nodeCompat: o.NodeCompat,
		alias:      o.Alias,
		rules:      rules,
		modules:    &moduleTable{},
		read:       map[string]bool{},
	}
	res, err := esbuild(ctx, o.esbuildOptions(r.plugin()))
	if err != nil {
		return nil, err
	}
	if len(res.Errors) > 0 {
		return nil, &BuildError{Errors: convertMessages(res.Errors), Warnings: convertMessages(res.Warnings)}
	}
	b := &Bundle{Warnings: convertMessages(res.Warnings)}
	for _, f := range res.OutputFiles {
		switch filepath.Base(f.Path) {
		case ScriptName:
			b.Script = f.Contents
		case ScriptName + ".map":
			b.SourceMap = f.Contents
		}
	}
	if b.Script == nil || b.SourceMap == nil {
		return nil, errors.New("bundle: esbuild produced no script or no source map")
	}
	if b.Script, b.Modules, err = r.modules.finish(b.Script); err != nil {
		return nil, err
	}
	if b.Inputs, err = inputs(res.Metafile, r.read, o.Tsconfig); err != nil {
		return nil, err
	}
	b.Hash = hash(b)
	return b, nil
}

// esbuild builds, cancelling the build when ctx ends.
func esbuild(ctx context.Context, bo api.BuildOptions) (api.BuildResult, error) {
	bctx, cerr := api.Context(bo)
	if cerr != nil {
		return api.BuildResult{}, &BuildError{Errors: convertMessages(cerr.Errors)}
	}
	defer bctx.Dispose()
	done := make(chan api.BuildResult, 1)
	go func() { done <- bctx.Rebuild() }()
	select {
	case res := <-done:
		if err := ctx.Err(); err != nil {
			return api.BuildResult{}, fmt.Errorf("bundle: %w", err)
		}
		return res, nil
	case <-ctx.Done():
		bctx.Cancel()
		<-done
		return api.BuildResult{}, fmt.Errorf("bundle: %w", ctx.Err())
	}
}

// inputs returns the sorted absolute paths of the files esbuild read (from
// its metafile), the plugin read and the tsconfig named in the options.
func inputs(metafile string, read map[string]bool, tsconfig string) ([]string, error) {
	var meta struct {
		Inputs map[string]json.RawMessage `json:"inputs"`
	}
	if err := json.Unmarshal([]byte(metafile), &meta); err != nil {
		return nil, fmt.Errorf("bundle: esbuild metafile: %w", err)
	}
	set := map[string]bool{}
	for path := range meta.Inputs {
		// Virtual modules are keyed "namespace:path"; files by absolute path.
		if filepath.IsAbs(path) {
			set[path] = true
		}
	}
	for path := range read {
		set[path] = true
	}
	if tsconfig != "" {
		set[tsconfig] = true
	}
	out := make([]string, 0, len(set))
	for path := range set {
		out = append(out, path)
	}
	sort.Strings(out)
	return out, nil
}

// hash is the hex SHA-256 of b's script, source map and modules, each
// field length-prefixed so that no two bundles share an encoding.
func hash(b *Bundle) string {
	h := sha256.New()
	field := func(p []byte) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write(p)
	}
	field(b.Script)
	field(b.SourceMap)
	for _, m := range b.Modules {
		field([]byte(m.Name))
		field([]byte(m.Type))
		field(m.Bytes)
	}
	return hex.EncodeToString(h.Sum(nil))
}
