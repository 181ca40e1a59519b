package bundle

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// Options says what to bundle and how; its fields mirror wrangler's
// configuration.
type Options struct {
	// Dir is the project root (the wrangler file's directory). Imports of
	// packages resolve from node_modules here and above; every path in the
	// output and in messages is relative to it. Required.
	Dir string
	// Entry is the main module (wrangler "main"), absolute or relative to
	// Dir. Required.
	Entry string
	// NodeCompat is set by the compatibility flags nodejs_compat and
	// nodejs_compat_v2: Node.js built-ins become runtime modules.
	NodeCompat bool
	// Rules are wrangler "rules", applied in order before DefaultRules.
	Rules []Rule
	// Define is wrangler "define": identifiers replaced by JavaScript
	// expressions. It overrides the defaults, process.env.NODE_ENV (and its
	// global. and globalThis. forms) = "production" and navigator.userAgent
	// = "Cloudflare-Workers", as wrangler's deploy defines them.
	Define map[string]string
	// Alias is wrangler "alias": an import of exactly a key is an import of
	// its value, resolved from Dir.
	Alias map[string]string
	// Tsconfig is wrangler "tsconfig", absolute or relative to Dir.
	// Default: each file's nearest tsconfig.json.
	Tsconfig string
	// JSXFactory and JSXFragment are wrangler "jsx_factory" and
	// "jsx_fragment". Default: tsconfig's, else React.createElement and
	// React.Fragment.
	JSXFactory, JSXFragment string
	// KeepNames is wrangler "keep_names": functions and classes keep their
	// names (Function.prototype.name) through renaming and minifying.
	// Default (nil): true, as in wrangler.
	KeepNames *bool
	// Build is wrangler "build", run before bundling. Default: none.
	Build *Command
	// Minify is wrangler "minify".
	Minify bool
	// Log receives a build command's output. Default: discarded.
	Log io.Writer
}

// Bundle is a Workers project as one script.
type Bundle struct {
	// Script is the bundled script. Run as a classic script at global
	// scope it sets GlobalName to the entry module's exports. Its last line
	// is "//# sourceMappingURL=" + ScriptName + ".map".
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

// defaultDefines are wrangler's defines for a deployed Worker.
var defaultDefines = map[string]string{
	"process.env.NODE_ENV":            `"production"`,
	"global.process.env.NODE_ENV":     `"production"`,
	"globalThis.process.env.NODE_ENV": `"production"`,
	"navigator.userAgent":             `"Cloudflare-Workers"`,
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

// normalize checks the options, makes their paths absolute and real
// (symlinks resolved, as esbuild resolves them) and parses the rules.
func (o Options) normalize() (Options, ruleSet, error) {
	if o.Dir == "" {
		return o, ruleSet{}, errors.New("bundle: no project directory (Dir)")
	}
	if o.Entry == "" {
		return o, ruleSet{}, errors.New("bundle: no entry module (Entry)")
	}
	dir, err := filepath.Abs(o.Dir)
	if err == nil {
		dir, err = filepath.EvalSymlinks(dir)
	}
	if err != nil {
		return o, ruleSet{}, fmt.Errorf("bundle: project directory: %w", err)
	}
	o.Dir = dir
	o.Entry = within(dir, o.Entry)
	if o.Tsconfig != "" {
		o.Tsconfig = within(dir, o.Tsconfig)
	}
	rules, err := parseRules(o.Rules)
	if err != nil {
		return o, ruleSet{}, fmt.Errorf("bundle: %w", err)
	}
	return o, rules, nil
}

// within returns path made absolute against dir, with symlinks resolved
// when it exists.
func within(dir, path string) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return path
}

// esbuildOptions are the esbuild options for o; the comments say which
// wrangler behaviour each follows.
func (o Options) esbuildOptions(plugin api.Plugin) api.BuildOptions {
	define := make(map[string]string, len(defaultDefines)+len(o.Define))
	for k, v := range defaultDefines {
		define[k] = v
	}
	for k, v := range o.Define {
		define[k] = v
	}
	keepNames := o.KeepNames == nil || *o.KeepNames
	return api.BuildOptions{
		EntryPoints:   []string{o.Entry},
		Bundle:        true,
		AbsWorkingDir: o.Dir,
		// Never written: Outfile only places the script in Dir, so that the
		// source map's sources are relative to Dir.
		Outfile:        filepath.Join(o.Dir, ScriptName),
		Write:          false,
		AllowOverwrite: true,
		Format:         api.FormatIIFE,
		GlobalName:     GlobalName,
		// wrangler leaves the platform to esbuild's default, browser: it
		// honours package.json "browser" maps and adds the "browser"
		// condition. Its conditions and main fields, set explicitly:
		Platform:   api.PlatformBrowser,
		Conditions: []string{"workerd", "worker", "browser"},
		MainFields: []string{"browser", "module", "main"},
		Target:     target,
		Supported:  supported(),
		// wrangler parses .js, .mjs and .cjs files as JSX.
		Loader: map[string]api.Loader{
			".js":  api.LoaderJSX,
			".mjs": api.LoaderJSX,
			".cjs": api.LoaderJSX,
		},
		Define:            define,
		Tsconfig:          o.Tsconfig,
		JSXFactory:        o.JSXFactory,
		JSXFragment:       o.JSXFragment,
		KeepNames:         keepNames,
		MinifyWhitespace:  o.Minify,
		MinifyIdentifiers: o.Minify,
		MinifySyntax:      o.Minify,
		Sourcemap:         api.SourceMapLinked,
		SourcesContent:    api.SourcesContentExclude,
		Metafile:          true,
		AbsPaths:          api.MetafileAbsPath,
		LogLevel:          api.LogLevelSilent,
		Plugins:           []api.Plugin{plugin},
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
