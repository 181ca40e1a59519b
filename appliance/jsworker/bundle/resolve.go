package bundle

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
)

// esbuild namespaces of the modules the plugin makes. Paths in the
// file-backed ones are relative to Options.Dir and slash-separated, so
// that nothing absolute reaches the output.
const (
	nsVirtual = "dwk"      // path: the specifier the runtime resolves
	nsText    = "dwk-text" // a Text rule's file
	nsData    = "dwk-data" // a Data rule's file
	nsWasm    = "dwk-wasm" // a CompiledWasm rule's file
	nsJS      = "dwk-js"   // a file an ESModule or CommonJS rule loads as JavaScript
)

// skipPlugin marks a resolve the plugin asks esbuild for itself, so that
// its own onResolve callback steps aside.
type skipPlugin struct{}

// resolver is the esbuild plugin that gives every import its module: the
// runtime's (virtual) modules, wrangler's aliases and module rules, and
// esbuild's own resolution for the rest.
type resolver struct {
	dir        string
	nodeCompat bool
	alias      map[string]string
	rules      ruleSet
	modules    *moduleTable

	mu   sync.Mutex
	read map[string]bool // absolute paths of files the plugin loaded
}

// plugin returns the esbuild plugin.
func (r *resolver) plugin() api.Plugin {
	return api.Plugin{Name: "dwk", Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: ".*"}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
			return r.resolve(b, args), nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: nsVirtual}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
			return api.OnLoadResult{Contents: ptr(stub(args.Path)), Loader: api.LoaderJS}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: nsText}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
			data, err := r.readFile(args.Path)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			return api.OnLoadResult{Contents: ptr(string(data)), Loader: api.LoaderText}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: nsData}, r.loadModule(RuleData))
		b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: nsWasm}, r.loadModule(RuleCompiledWasm))
		b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: nsJS}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
			data, err := r.readFile(args.Path)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			return api.OnLoadResult{
				Contents:   ptr(string(data)),
				Loader:     api.LoaderJSX,
				ResolveDir: filepath.Dir(r.abs(args.Path)),
			}, nil
		})
	}}
}

// resolve decides where one import comes from. An empty result lets
// esbuild resolve the import itself.
func (r *resolver) resolve(b api.PluginBuild, args api.OnResolveArgs) api.OnResolveResult {
	if _, ok := args.PluginData.(skipPlugin); ok || args.Kind == api.ResolveEntryPoint {
		return api.OnResolveResult{}
	}
	spec, dir := args.Path, args.ResolveDir
	// wrangler resolves an alias's target from the project root, before
	// anything else (its alias plugin comes first).
	target, aliased := r.alias[spec]
	if aliased {
		spec, dir = target, r.dir
	}
	switch {
	case strings.HasPrefix(spec, cloudflarePrefix), spec == staticContentManifest:
		return virtual(spec)
	case strings.HasPrefix(spec, nodePrefix):
		if r.nodeCompat {
			return virtual(spec)
		}
		return failed(nodeCompatText(spec))
	case nodeBuiltins[spec]:
		if r.nodeCompat {
			// As wrangler's nodejs_compat (v2) does through unenv's aliases:
			// a bare built-in name is the built-in even when node_modules
			// holds a package of that name.
			return virtual(nodePrefix + spec)
		}
		// Without nodejs_compat wrangler lets esbuild resolve the name, so
		// an npm polyfill (the "buffer" package, say) is bundled when
		// installed; only a name nothing provides is an error.
		res := r.resolveDefault(b, args, spec, dir)
		if len(res.Errors) > 0 {
			return failed(nodeCompatText(spec))
		}
		return res
	}
	for _, m := range r.rules.active {
		if m.match(spec) {
			return r.resolveRule(b, args, m.rule, spec, dir)
		}
	}
	for _, m := range r.rules.removed {
		if m.match(spec) {
			rule, _ := json.Marshal(m.rule) // a Rule always marshals
			return failed(fmt.Sprintf("%q matches the module rule %s, which is ignored because an earlier %s rule "+
				"does not have fallthrough = true", spec, rule, m.rule.Type))
		}
	}
	if aliased {
		return r.resolveDefault(b, args, spec, dir)
	}
	return api.OnResolveResult{}
}

// resolveDefault resolves spec from dir the way esbuild would.
func (r *resolver) resolveDefault(b api.PluginBuild, args api.OnResolveArgs, spec, dir string) api.OnResolveResult {
	res := b.Resolve(spec, api.ResolveOptions{
		Importer:   args.Importer,
		Namespace:  args.Namespace,
		ResolveDir: dir,
		Kind:       args.Kind,
		With:       args.With,
		PluginData: skipPlugin{},
	})
	out := api.OnResolveResult{
		Errors:     res.Errors,
		Warnings:   res.Warnings,
		Path:       res.Path,
		External:   res.External,
		Namespace:  res.Namespace,
		Suffix:     res.Suffix,
		PluginData: res.PluginData,
	}
	if !res.SideEffects {
		out.SideEffects = api.SideEffectsFalse
	}
	return out
}

// resolveRule resolves an import a module rule matched. Like wrangler it
// drops a query ("?module"), lets esbuild resolve the rest (so package
// "exports" apply), and falls back to the path next to the importer.
func (r *resolver) resolveRule(b api.PluginBuild, args api.OnResolveArgs, rule Rule, spec, dir string) api.OnResolveResult {
	clean, _, _ := strings.Cut(spec, "?")
	res := r.resolveDefault(b, args, clean, dir)
	path := res.Path
	if len(res.Errors) > 0 || res.Namespace != "file" || path == "" {
		path = filepath.Join(dir, filepath.FromSlash(clean))
		if st, err := os.Stat(path); err != nil || st.IsDir() {
			return failed(fmt.Sprintf("could not resolve %q (matched by the %s module rule)", spec, rule.Type))
		}
	}
	switch rule.Type {
	case RuleText:
		return api.OnResolveResult{Path: r.rel(path), Namespace: nsText}
	case RuleData:
		return api.OnResolveResult{Path: r.rel(path), Namespace: nsData}
	case RuleCompiledWasm:
		return api.OnResolveResult{Path: r.rel(path), Namespace: nsWasm}
	}
	// ESModule and CommonJS: esbuild loads JavaScript and TypeScript by
	// itself; anything else is read as JavaScript.
	switch filepath.Ext(path) {
	case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx":
		return api.OnResolveResult{Path: path, Namespace: "file"}
	}
	return api.OnResolveResult{Path: r.rel(path), Namespace: nsJS}
}

// loadModule returns the onLoad callback of a Data or CompiledWasm module:
// the module's stub, which names it by a placeholder that Build turns into
// its index once every module is known.
func (r *resolver) loadModule(typ string) func(api.OnLoadArgs) (api.OnLoadResult, error) {
	return func(args api.OnLoadArgs) (api.OnLoadResult, error) {
		data, err := r.readFile(args.Path)
		if err != nil {
			return api.OnLoadResult{}, err
		}
		spec, err := r.modules.add(Module{Name: args.Path, Type: typ, Bytes: data})
		if err != nil {
			return api.OnLoadResult{}, err
		}
		return api.OnLoadResult{Contents: ptr(stub(spec)), Loader: api.LoaderJS}, nil
	}
}

// readFile reads a file named relative to Dir and records it as an input.
func (r *resolver) readFile(rel string) ([]byte, error) {
	path := r.abs(rel)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.read[path] = true
	r.mu.Unlock()
	return data, nil
}

// rel returns path relative to Dir, slash-separated.
func (r *resolver) rel(path string) string {
	rel, err := filepath.Rel(r.dir, path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}

// abs returns the absolute path of a path relative to Dir.
func (r *resolver) abs(rel string) string {
	return filepath.Join(r.dir, filepath.FromSlash(rel))
}

// virtual resolves spec to the runtime's module of that name.
func virtual(spec string) api.OnResolveResult {
	return api.OnResolveResult{Path: spec, Namespace: nsVirtual}
}

// failed is an onResolve result with one error; esbuild positions it at
// the import.
func failed(text string) api.OnResolveResult {
	return api.OnResolveResult{Errors: []api.Message{{Text: text}}}
}

// nodeCompatText is the error for a Node.js built-in imported without
// nodejs_compat, worded after wrangler's.
func nodeCompatText(spec string) string {
	return fmt.Sprintf("The package %q wasn't found on the file system but is built into node: "+
		"add compatibility_flags = [\"nodejs_compat\"] to your wrangler configuration to use Node.js APIs", spec)
}

// stub is the source of the module that hands an import to the runtime.
func stub(spec string) string {
	q, _ := json.Marshal(spec) // a string always marshals
	return "module.exports = globalThis.__dwk_import(" + string(q) + ");\n"
}

func ptr[T any](v T) *T { return &v }
