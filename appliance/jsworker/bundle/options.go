package bundle

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/evanw/esbuild/pkg/api"
)

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
	// Rules are wrangler "rules", applied in order before wrangler's
	// defaults (Text for **/*.txt, **/*.html, **/*.sql; Data for **/*.bin;
	// CompiledWasm for **/*.wasm, **/*.wasm?module).
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
	// LowerClassFields rewrites class fields as assignments in the
	// constructor (private ones as WeakMaps). goja's parser refuses a
	// field named get, set or async ("set = (key, value) => ..." in
	// Hono's Context): a caller whose bundle does not parse builds again
	// with this set. Default: false (fields kept, which runs faster).
	LowerClassFields bool
	// Log receives a build command's output. Default: discarded.
	Log io.Writer
}

// defaultDefines are wrangler's defines for a deployed Worker.
var defaultDefines = map[string]string{
	"process.env.NODE_ENV":            `"production"`,
	"global.process.env.NODE_ENV":     `"production"`,
	"globalThis.process.env.NODE_ENV": `"production"`,
	"navigator.userAgent":             `"Cloudflare-Workers"`,
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
		Supported:  supported(o.LowerClassFields),
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
