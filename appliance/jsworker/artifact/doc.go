// Package artifact writes and reads a Workers project as one
// reproducible file, an artifact (".dwkb"), which dwk serves with no
// Node.js, no npm and no sources: `dwk bundle` writes one, `dwk serve
// --config app.dwkb` and dwk.json's workers[].project serve it (through
// project.Load, which tells an artifact from a wrangler file with
// project.IsArtifact).
//
// # Format
//
// An artifact is a zip archive with these members:
//
//	dwk-project.json            the manifest (Manifest)
//	worker.js                   the bundled script (bundle.Bundle.Script)
//	worker.js.map               its source map
//	modules/<index>             the bundle's Data and CompiledWasm modules
//	assets/<path>               the assets directory's files
//	migrations/<binding>/<name> each D1 database's migration files
//
// The manifest records the format's version (Format), the worker's name,
// the resolved wrangler project (Config: every binding, vars,
// compatibility settings, Durable Object migrations, crons, queues,
// assets settings, cpu_ms), the bundle's hash, the modules' names and
// types, and every other member with its size and SHA-256, sorted by
// name. Paths in it are relative to the archive: main is "worker.js", the
// assets directory "assets", a D1 database's migrations_dir
// "migrations/<binding>" and its migrations_pattern that directory
// followed by the pattern the wrangler file gave.
//
// # The content hash
//
// The manifest's content_hash is the hex SHA-256 of the manifest's
// canonical encoding (Manifest.Encode: encoding/json, two-space indent,
// fields in the order of the Go types, map keys sorted, no HTML escaping,
// a final newline) with content_hash left out. Since the manifest lists
// every member's SHA-256, the content hash covers every byte the worker
// runs or serves, and names the artifact: `dwk bundle` prints it, and a
// project loaded from an artifact reports it (project.Project.Hash). It
// does not depend on how the members are compressed.
//
// Read (and Open) verify an artifact before anything uses it: the format,
// the content hash, every member's size and SHA-256, that the archive
// holds exactly the members the manifest lists and that each is where
// the format puts it. An error names the member at fault and wraps
// ErrCorrupt. The archive is then held in memory, so a file changed
// after it was verified changes nothing that serves.
//
// # Reproducibility
//
// The same project gives the same bytes, built twice or from a copy in
// another directory: the bundle has no absolute path and no time in it
// (see package bundle), the manifest has no absolute path, the members
// are sorted by name, each carries the same modification time
// (1980-01-01 00:00:00) and mode (0644), no extra field and no data
// descriptor, and is deflated at flate.BestCompression, or stored when
// that does not make it smaller. Compression is Go's: the same dwk
// binary gives the same bytes; another Go release may compress
// differently, which changes the bytes but not the content hash.
//
// # What is not inside
//
//   - Secrets. The values of .dev.vars and .env are never in an artifact;
//     the manifest records their names (secret_names, with
//     required_secrets), and the host binds them: dwk.json's
//     workers[].bindings.secrets (a string, {"env": NAME} or {"file":
//     PATH}). A var that a secrets file overrode when the project was
//     bundled is left out of the worker's env, as under wrangler dev.
//   - The sources, node_modules, the build command and the bundler's
//     settings: the code is bundled already. The source map names the
//     project's files, so stack traces still do.
//   - Assets that the assets directory's .assetsignore names, and, as
//     wrangler does, the .assetsignore, _redirects and _headers files at
//     its root. .assetsignore takes gitignore's patterns (#
//     comments, '!' to take a file back, '/' anchoring, a trailing '/'
//     for directories, '*', '?', '[...]' and "**"; the last match wins,
//     and nothing inside a directory left out comes back). Other dotfiles are shipped, as wrangler ships them. A
//     symbolic link to a file is shipped as the file; one to a directory
//     is refused.
//   - Migration files that migrations_pattern does not match.
//
// Inspect an artifact with `unzip -l app.dwkb` and read its manifest
// with `unzip -p app.dwkb dwk-project.json`.
package artifact
