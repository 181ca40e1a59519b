// Package bundle turns a Cloudflare Workers project (JavaScript or
// TypeScript, npm dependencies, wrangler configuration) into one script
// that goja can run. It bundles in process with esbuild's Go API; Node.js
// is needed only by a project's own build command.
//
// # The script
//
// Build returns a Bundle. Its Script is an IIFE whose result is assigned
// to the global variable __dwk_entry (GlobalName): run at global scope as
// a classic script, it leaves the entry module's exports object in
// globalThis.__dwk_entry, with the default export under "default" and
// every named export (Durable Object classes, WorkerEntrypoint classes)
// under its name; a CommonJS entry leaves its module.exports. A
// service-worker script, which exports nothing and is not CommonJS,
// leaves __dwk_entry undefined. The script's last line is
//
//	//# sourceMappingURL=worker.js.map
//
// and Bundle.SourceMap is that map: its sources are relative to
// Options.Dir ("src/index.ts", "node_modules/pkg/index.js"), so that a
// stack frame at worker.js:L:C maps back to a project file and line. It
// has no sourcesContent. goja follows the sourceMappingURL line when it
// parses the script (and fails if it cannot load the map), so the runtime
// parses with goja.Parse(ScriptName, script,
// parser.WithSourceMapLoader(...)) handing it Bundle.SourceMap; goja's
// stack traces then name project files ("src/fail.ts:6:8").
// Nothing in the script or the map is an absolute
// path, a time or the product of map iteration: the same project gives
// the same bytes, and the same Bundle.Hash, in any directory.
//
// # Virtual modules
//
// An import that is not a file of the project is resolved to a CommonJS
// module of one line, which asks the runtime for it:
//
//	module.exports = globalThis.__dwk_import("<specifier>");
//
// The runtime defines __dwk_import (ImportFunc) before running the
// script. The script calls it at most once per specifier (the CommonJS
// wrapper keeps the result), when the first module importing the
// specifier is evaluated, and it must return an object whose own properties
// are the module's named exports. A default import gets that object
// itself, unless it has __esModule set, in which case its "default"
// property (esbuild's interop; .mjs importers always get the object).
// The specifiers are:
//
//   - every "cloudflare:" specifier as written ("cloudflare:workers",
//     "cloudflare:sockets", "cloudflare:email", "cloudflare:workflows",
//     ...), and "__STATIC_CONTENT_MANIFEST" (Workers Sites); the runtime
//     decides which exist.
//   - with Options.NodeCompat (nodejs_compat, nodejs_compat_v2): every
//     "node:" specifier as written, subpaths kept ("node:path/posix"), and
//     every bare Node.js built-in name, normalised to "node:" + name
//     ("util/types" → "node:util/types"). The bare names are Node's
//     module.builtinModules. As wrangler does in this mode (through the
//     unenv preset's aliases), a bare built-in name is the built-in even
//     when node_modules holds an npm package of that name.
//   - without NodeCompat, a "node:" import is an error positioned at the
//     import, asking for compatibility_flags = ["nodejs_compat"]. A bare
//     built-in name is first resolved as a package, as wrangler lets
//     esbuild do, so an installed npm polyfill (the "buffer" package) is
//     bundled; only a name nothing provides is that error.
//   - "dwk:module/<index>" (ModulePrefix): Bundle.Modules[index], below.
//
// # Module rules
//
// wrangler's "rules" (Options.Rules) come first, then its defaults:
// Text for **/*.txt, **/*.html and **/*.sql, Data for **/*.bin,
// CompiledWasm for **/*.wasm and **/*.wasm?module. Globs match
// the import specifier as written, as wrangler matches them. The first
// matching rule applies. A rule without fallthrough hides every later
// rule of its type, defaults included, and an import that only a hidden
// rule matches is an error, as in wrangler.
//
//   - Text: the file's content is the module's value (module.exports, the
//     default export).
//   - Data and CompiledWasm: the module is
//     module.exports = globalThis.__dwk_import("dwk:module/<index>"), and
//     Bundle.Modules[index] holds the file's name and bytes; the runtime
//     returns an ArrayBuffer for Data and a WebAssembly.Module for
//     CompiledWasm. Indices follow the modules' names, so they do not
//     depend on the order esbuild loads files in. (The index is written
//     over a fixed-width placeholder after esbuild has run, so spaces may
//     follow its string literal: "dwk:module/0"    ).
//   - ESModule and CommonJS: the file is loaded as JavaScript whatever its
//     extension; esbuild tells the two apart by their syntax.
//
// # Syntax level
//
// goja runs ES2022 syntax, BigInt literals, classes with private fields,
// methods and static blocks, optional chaining, ?? and logical assignment
// included, but not async generators or for await, and its RegExp has no
// named groups (.groups stays undefined), no \p{...} escapes and no d or v
// flags. The output targets ES2022 with exactly those features marked
// unsupported in esbuild's Supported option: async generators and for
// await are rewritten with generators and promises, and a regexp literal
// using one of those regexp features becomes a new RegExp(...) call, so
// that the script parses and the runtime's RegExp can handle the pattern
// when it runs. Targeting ES2017 wholesale, the usual choice for older
// engines, would lower far more than goja needs: private members into
// WeakMap helpers, class fields, static blocks, optional chaining, object
// spread and BigInt literals (into BigInt("...") calls; older esbuild
// releases rejected them outright), which costs speed and makes the code
// that runs differ from the source for nothing.
//
// Top-level await cannot be expressed in an IIFE: it is an error saying
// that dwk cannot run it yet.
//
// # Resolution
//
// Like wrangler: esbuild's browser platform (wrangler leaves esbuild's
// default, so package.json "browser" maps apply), the conditions
// "workerd", "worker" and "browser" for package.json "exports", the main
// fields "browser", "module" and "main", .js/.mjs/.cjs parsed as JSX,
// TypeScript (.ts, .tsx, .mts, .cts) and JSX with the project's tsconfig
// (jsx, jsxImportSource, jsxFactory) or Options.Tsconfig,
// Options.JSXFactory and Options.JSXFragment. Options.Alias is applied
// before anything else, its targets resolved from Options.Dir, as
// wrangler's alias plugin does. process.env.NODE_ENV is defined as
// "production" and navigator.userAgent as "Cloudflare-Workers", as
// wrangler defines them for a deployed Worker; Options.Define overrides
// them. Names are kept (keep_names) unless Options.KeepNames says not.
//
// # Errors
//
// When esbuild reports errors, Build returns a *BuildError with all of
// them and all warnings, each formatted "path:line:col: message" with the
// path relative to Options.Dir. A build command (wrangler "build") runs
// first with sh -c, in its Cwd, with Dir/node_modules/.bin first on PATH
// (wrangler itself relies on npm or npx for that), bounded by its Timeout
// and the context; a failure names the command, its exit status and the
// last lines of its output.
package bundle
