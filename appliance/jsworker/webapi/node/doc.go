// Package node is dwk's Node.js compatibility layer: the extension the
// adapter installs for workers with the nodejs_compat compatibility flag.
// The bundler turns an import of a Node.js built-in ("node:buffer", or
// "buffer") into globalThis.__dwk_import("node:buffer"), which returns the
// module this package registered in internal.modules. Every module is
// made on first import, so one that a worker never imports costs nothing.
//
// # Globals
//
// Buffer, process and global, as Cloudflare defines them with
// nodejs_compat (setImmediate and clearImmediate come from the core).
// Buffer and process are made on first use. util.promisify(setTimeout)
// and util.promisify(setImmediate) give the timers/promises versions.
//
// # Modules
//
// Modules is the list, with each module's level of support; ModuleTable
// renders it for docs/porting.md. In short:
//
// Supported: node:assert, node:assert/strict, node:async_hooks,
// node:buffer, node:console, node:crypto, node:diagnostics_channel,
// node:events, node:path, node:path/posix, node:process, node:punycode,
// node:querystring, node:stream, node:stream/consumers,
// node:stream/promises, node:stream/web, node:_stream_duplex,
// node:_stream_passthrough, node:_stream_readable, node:_stream_transform,
// node:_stream_writable, node:string_decoder, node:sys, node:timers,
// node:timers/promises, node:url, node:util and node:util/types.
//
// Partial (a small faithful subset; the rest throws when used): node:http
// (STATUS_CODES, METHODS), node:module (builtinModules, isBuiltin,
// createRequire for built-ins), node:os, node:perf_hooks (performance)
// and node:tty (isatty).
//
// Stubbed (importing works, as libraries need at load time; using any
// export throws `dwk does not support the Node.js module "node:fs"`):
// node:child_process, node:cluster, node:constants, node:dgram, node:dns,
// node:dns/promises, node:domain, node:fs, node:fs/promises, node:http2,
// node:https, node:inspector, node:inspector/promises, node:net,
// node:path/win32, node:readline, node:readline/promises, node:repl,
// node:sea, node:sqlite, node:test, node:test/reporters, node:tls,
// node:trace_events, node:v8, node:vm, node:wasi, node:worker_threads,
// node:zlib, and the internal node:_http_*, node:_stream_wrap and
// node:_tls_* modules.
//
// # process.env
//
// process.env starts empty. The adapter fills it by calling
// internal.setProcessEnv(env) with the worker's env when Cloudflare would:
// with nodejs_compat and a compatibility date of 2025-04-01 or later, or
// with the nodejs_compat_populate_process_env flag, unless
// nodejs_compat_do_not_populate_process_env is set. As in workerd, string
// variables and secrets go in as they are, JSON variables as their JSON
// text, and bindings (KV, objects, services) are left out. Values set on
// process.env become strings.
//
// # Natives
//
// The byte work is Go: Buffer's encodings (Node's lenient base64 and hex
// decoding, the Encoding standard's UTF-8 decoding), search, compare and
// fill; hashes, HMAC, random values, pbkdf2, hkdf and scrypt (the
// callback forms run off the loop), AES ciphers (GCM streams: update
// returns data at once and final computes or checks the tag), and keys,
// signatures and key pair generation for RSA, ECDSA (P-256, P-384,
// P-521) and Ed25519 keys in PEM, DER and JWK.
//
// # Differences
//
// From Node.js and Cloudflare:
//
//   - process.nextTick is queueMicrotask, as in workerd: a tick runs after
//     the promise reactions queued before it, not before all of them.
//   - The stubbed modules throw; Cloudflare implements some of them (a
//     virtual node:fs, node:http and node:https clients over fetch, net
//     and tls over connect(), dns over DNS over HTTPS, zlib).
//   - util.inspect and util.format honour util.inspect.custom on the
//     value given, not on values nested in it; colors and showHidden are
//     ignored.
//   - Buffer.allocUnsafe returns zeroed memory (there is no pool), and
//     Buffer.byteLength of base64 is exact rather than Node's estimate.
//   - node:crypto has no Diffie-Hellman or ECDH, X509Certificate,
//     publicEncrypt/privateDecrypt, encrypted private keys, SHAKE, or
//     ciphers other than AES (CBC, ECB, CTR, GCM); KeyObject.from and
//     toCryptoKey throw (go through crypto.subtle's import and export).
//   - events.getEventListeners returns [] for an EventTarget.
//   - node:stream has no compose, and Duplex.from does not take async
//     generator functions.
//   - process.memoryUsage and cpuUsage report zeros; process.exit, abort,
//     kill and chdir throw.
//   - Timers' ref and unref change nothing; the global setTimeout still
//     returns a number (node:timers returns Timeout objects).
//   - async_hooks.createHook returns hooks that never fire, and
//     executionAsyncId is 0; AsyncLocalStorage.enterWith throws, as in
//     workerd.
//   - path.win32 throws; url.resolve resolves with the WHATWG parser, and
//     url.parse is Node's legacy parser for the common cases.
//   - Console instances log to the global console, not to the streams
//     they are given; process.stdout and stderr write one log entry per
//     write.
//   - diagnostics_channel keeps every channel it made.
package node
