// Package project loads a Workers project for dwk: its wrangler file read
// for one environment, its code bundled and compiled, and from them the
// worker entry of dwk.json (bindings onto the fleet's stores by name,
// crons, queue consumers) and the JavaScript worker that serves it.
//
// # Names
//
// A binding's store is named as wrangler names it: a D1 database by
// database_name, an R2 bucket by bucket_name, a queue by its queue name, a
// KV namespace by its id (or, without one, by its binding). dwk store
// names are 1 to 63 characters of a-z, 0-9, '_' and '-': a wrangler name
// outside that set is lower-cased and its other characters become '-';
// two bindings whose names meet that way are refused.
//
// A Durable Object class registers as "<worker>.<class>" (jsworker.
// ClassName), under the name the class was first created with: a class
// renamed by a migration keeps its objects.
//
// # Artifacts
//
// Load and Describe also take an artifact (package artifact; what dwk
// bundle writes) in place of a wrangler file. IsArtifact tells them
// apart: a name ending in .dwkb or .zip, or a file that begins as a zip
// archive does. From an artifact, the wrangler project is the manifest's
// (its paths name members of the archive), the code is the archive's
// bundle, compiled as it is (no build command, no bundling, no Node.js),
// and the assets are served from the archive. The same describe step
// maps either onto dwk's stores, so an artifact binds what its sources
// would, but for secrets: an artifact holds none, only their names
// (SecretNames), and its worker reads the values the host binds, as
// dwk.json's workers[].bindings.secrets. Source and Hash say which build
// runs: the artifact and its content hash, or the wrangler file and the
// bundle's hash.
package project
