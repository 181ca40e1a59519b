// Package wrangler reads a Cloudflare Workers project's wrangler
// configuration (wrangler.json, wrangler.jsonc or wrangler.toml) so dwk
// can run the project unmodified: Find picks the file with wrangler's
// precedence, Load parses it, picks an environment, checks every key and
// returns a typed, resolved Project for the bundler and the JavaScript
// runtime.
//
// # How a file is read
//
// The three formats are parsed into one tree (JSON and JSONC both as
// JSONC, comments and trailing commas allowed, as wrangler does), and the
// tree is walked by code that knows every key wrangler knows. Each key is
// one of:
//
//   - read: it becomes a Project field, with wrangler's default when it
//     is absent and paths resolved against the file's directory;
//   - ignored: it means nothing on dwk (account_id, routes, observability,
//     limits, dev, ...): Load keeps going and adds a warning naming the
//     key and why;
//   - refused: it is a feature dwk does not have (ai, vectorize,
//     workflows, hyperdrive, send_email, containers, wasm_modules, ...):
//     Load fails with an error naming the key and why. A worker that uses
//     a binding dwk cannot provide would fail later, at a worse time.
//
// Any other key is an error naming its path and, when one is close, the
// key that was probably meant. Wrangler only warns about unknown keys and
// then ignores them; dwk refuses them because an ignored typo (say
// kv_namspaces) silently drops a binding. Keys inside entries (a D1
// database's remote, an R2 bucket's jurisdiction) follow the same three
// ways. README.md has the table of every top-level key with its decision;
// a test keeps it equal to the table in keys.go.
//
// Wrong types are errors naming the path and the type expected
// ("d1_databases[0].binding: must be a string, got number"). Load does not
// stop at the first problem: it returns every error it found, as Problems,
// one per line, each naming the file's base name and the key path.
//
// # Environments
//
// With Options.Env (wrangler's --env, or CLOUDFLARE_ENV), the env.<name>
// section is resolved as wrangler resolves it: inheritable keys (main,
// compatibility_date, compatibility_flags, migrations, triggers, rules,
// build, assets, ...) come from the top level when the environment does
// not set them; the others (vars, define, every binding) do not, and a key
// the top level has and the environment lacks is a warning, as in
// wrangler. The name becomes "<name>-<env>" unless the environment sets
// its own. An environment the file does not define is an error listing
// those it does; if the file defines none, wrangler and Load only warn and
// use the top level under the environment's name. The top level is always
// checked in full; other environments are not read, as in wrangler. A key
// dwk refuses that the top level has and the chosen environment does not
// inherit (ai, say) is only a warning there: that environment's worker
// does not get it, so a project can keep an environment for dwk.
//
// # Secrets
//
// Secrets come from .dev.vars next to the file, or .dev.vars.<env>
// instead when it exists; when neither does, from the .env files
// (.env, .env.local, .env.<env>, .env.<env>.local) with ${VAR}
// expansion, as wrangler dev reads them. A secret and a var of the same
// name: the secret wins, as in wrangler dev (Project.EnvVars). A file
// with a secrets key only takes the names in secrets.required (and vars'
// names) from those files.
//
// # Decisions where wrangler leaves room
//
//   - name and main are required (an assets-only worker, assets.directory
//     without main, is allowed, as wrangler allows it); R2 bucket_name, D1
//     database_name and a queue producer's queue are required, since dwk
//     keeps the data under those names (wrangler can provision them on
//     deploy).
//   - Binding names of resources (KV, R2, D1, Durable Objects, queues,
//     services, assets) must be JavaScript identifiers; vars and secrets
//     may be any string, since .env files often use other characters.
//     Every name is unique across all kinds, vars and secrets included.
//   - compatibility_flags are kept as written; a flag other than
//     nodejs_compat, nodejs_compat_v2, no_nodejs_compat_v2 and nodejs_als
//     is a warning, since the runtime may not implement it.
//   - Durable Object storage is kept under the name a class was first
//     created as (ClassNamespaces), so it survives renames. Reusing the
//     name of a renamed or deleted class for a new class is refused.
//     transferred_classes and the newer exports key are refused.
//   - Queue consumer defaults are Cloudflare's (10 messages, 5 seconds, 3
//     retries), not miniflare's smaller ones.
//   - no_bundle, minify, keep_names, define, alias, tsconfig, jsx_* and
//     rules are read into Project.Bundle for the bundler to honour.
//   - assets.experimental_serve_directly, which wrangler v4 dropped, is
//     still read (as run_worker_first, inverted), with a warning.
//   - Find looks in the given directory only; wrangler also searches the
//     parent directories.
package wrangler
