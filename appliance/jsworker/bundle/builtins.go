package bundle

import "strings"

// nodeBuiltins are the Node.js built-in modules importable without the
// "node:" prefix: module.builtinModules of Node.js 20 and 24, the same
// list as @cloudflare/unenv-preset's nonPrefixedNodeModules. Modules that
// exist only with the prefix (node:sea, node:sqlite, node:test) need no
// entry: every "node:" specifier is a built-in.
var nodeBuiltins = wordSet(`
	_http_agent _http_client _http_common _http_incoming _http_outgoing
	_http_server _stream_duplex _stream_passthrough _stream_readable
	_stream_transform _stream_wrap _stream_writable _tls_common _tls_wrap
	assert assert/strict async_hooks buffer child_process cluster console
	constants crypto dgram diagnostics_channel dns dns/promises domain
	events fs fs/promises http http2 https inspector inspector/promises
	module net os path path/posix path/win32 perf_hooks process punycode
	querystring readline readline/promises repl stream stream/consumers
	stream/promises stream/web string_decoder sys timers timers/promises
	tls trace_events tty url util util/types v8 vm wasi worker_threads
	zlib`)

// wordSet returns the set of the whitespace-separated words in s.
func wordSet(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(s) {
		set[w] = true
	}
	return set
}

// Specifier prefixes of the modules the runtime provides.
const (
	nodePrefix       = "node:"
	cloudflarePrefix = "cloudflare:"
)

// staticContentManifest is the import Workers Sites uses for its asset
// manifest; wrangler leaves it external, dwk hands it to the runtime.
const staticContentManifest = "__STATIC_CONTENT_MANIFEST"
