package node

import (
	"fmt"
	"sort"
	"strings"
)

// Level says how much of a Node.js module dwk provides.
type Level int

// The levels of support.
const (
	// Supported modules implement the API that workers use (see Note for
	// what is left out).
	Supported Level = iota
	// Partial modules implement a small faithful subset (Note lists it);
	// every other export throws when it is used.
	Partial
	// Stubbed modules can be imported, as libraries do at load time, but
	// using any of their exports throws "dwk does not support the Node.js
	// module".
	Stubbed
)

func (l Level) String() string {
	switch l {
	case Supported:
		return "supported"
	case Partial:
		return "partial"
	case Stubbed:
		return "stubbed"
	}
	return "unknown"
}

// Support describes dwk's version of one Node.js module.
type Support struct {
	Level Level
	// Note says what is missing from a supported module, or what a
	// partial one has.
	Note string
	// AliasOf names the module this one re-exports ("node:sys" is
	// "node:util"), if any.
	AliasOf string
}

// Modules lists every Node.js built-in module a worker with nodejs_compat
// can import, by specifier. The prelude registers exactly these, the
// stubs from this list; docs and tests read it too.
var Modules = map[string]Support{
	"node:assert":              {Level: Supported, Note: "deep equality compares own enumerable properties, Map, Set, Date, RegExp, typed arrays and boxed primitives; no CallTracker"},
	"node:assert/strict":       {Level: Supported, Note: "assert in strict mode"},
	"node:async_hooks":         {Level: Supported, Note: "AsyncLocalStorage and AsyncResource; createHook returns a hook that never fires; asyncId and triggerAsyncId are placeholders"},
	"node:buffer":              {Level: Supported, Note: "Buffer, Blob and File (the globals), atob, btoa, isUtf8, isAscii, transcode, constants; no SlowBuffer pooling"},
	"node:console":             {Level: Supported, Note: "the global console; Console writes to it whatever streams it is given"},
	"node:crypto":              {Level: Supported, Note: "hashes, HMAC, random, pbkdf2, hkdf, scrypt, timingSafeEqual, AES-GCM/CBC/CTR ciphers, sign and verify with PEM keys, webcrypto; no Diffie-Hellman, X509Certificate or generateKeyPair"},
	"node:diagnostics_channel": {Level: Supported, Note: "channels, subscriptions, bindStore/runStores and tracingChannel"},
	"node:events":              {Level: Supported, Note: "EventEmitter with captureRejections, once, on, getEventListeners (EventEmitter only), setMaxListeners"},
	"node:path":                {Level: Supported, Note: "POSIX paths with the working directory \"/\"; path.win32 throws"},
	"node:path/posix":          {Level: Supported, AliasOf: "node:path"},
	"node:path/win32":          {Level: Stubbed, Note: "Windows paths are not supported"},
	"node:process":             {Level: Supported, Note: "env, nextTick (as queueMicrotask), hrtime, memoryUsage, emitWarning, events; exit, abort and chdir throw"},
	"node:punycode":            {Level: Supported},
	"node:querystring":         {Level: Supported},
	"node:stream":              {Level: Supported, Note: "Readable, Writable, Duplex, Transform, PassThrough, pipeline, finished, compose-free; Readable.from, toWeb and fromWeb"},
	"node:stream/consumers":    {Level: Supported},
	"node:stream/promises":     {Level: Supported},
	"node:stream/web":          {Level: Supported, Note: "the global Web stream classes"},
	"node:_stream_duplex":      {Level: Supported, AliasOf: "node:stream"},
	"node:_stream_passthrough": {Level: Supported, AliasOf: "node:stream"},
	"node:_stream_readable":    {Level: Supported, AliasOf: "node:stream"},
	"node:_stream_transform":   {Level: Supported, AliasOf: "node:stream"},
	"node:_stream_writable":    {Level: Supported, AliasOf: "node:stream"},
	"node:string_decoder":      {Level: Supported},
	"node:timers":              {Level: Supported, Note: "timers return Timeout objects; ref and unref change nothing"},
	"node:timers/promises":     {Level: Supported},
	"node:url":                 {Level: Supported, Note: "the WHATWG URL globals, file URL helpers, and the legacy parse, format and resolve"},
	"node:util":                {Level: Supported, Note: "inspect honours util.inspect.custom on the value itself only; no parseArgs, MIMEType or getSystemErrorName"},
	"node:util/types":          {Level: Supported, Note: "isProxy and isExternal are always false"},
	"node:sys":                 {Level: Supported, AliasOf: "node:util"},

	"node:module":             {Level: Partial, Note: "builtinModules, isBuiltin and createRequire (for built-in modules only)"},
	"node:os":                 {Level: Partial, Note: "EOL, constants and fixed answers for platform, arch, type, release, hostname, tmpdir, homedir, endianness, cpus, memory and load"},
	"node:perf_hooks":         {Level: Partial, Note: "performance (the global)"},
	"node:tty":                {Level: Partial, Note: "isatty (always false)"},
	"node:http":               {Level: Partial, Note: "STATUS_CODES and METHODS"},
	"node:https":              {Level: Stubbed},
	"node:http2":              {Level: Stubbed},
	"node:fs":                 {Level: Stubbed},
	"node:fs/promises":        {Level: Stubbed},
	"node:net":                {Level: Stubbed},
	"node:tls":                {Level: Stubbed},
	"node:dns":                {Level: Stubbed},
	"node:dns/promises":       {Level: Stubbed},
	"node:dgram":              {Level: Stubbed},
	"node:child_process":      {Level: Stubbed},
	"node:cluster":            {Level: Stubbed},
	"node:worker_threads":     {Level: Stubbed},
	"node:zlib":               {Level: Stubbed},
	"node:vm":                 {Level: Stubbed},
	"node:v8":                 {Level: Stubbed},
	"node:readline":           {Level: Stubbed},
	"node:readline/promises":  {Level: Stubbed},
	"node:inspector":          {Level: Stubbed},
	"node:inspector/promises": {Level: Stubbed},
	"node:repl":               {Level: Stubbed},
	"node:sqlite":             {Level: Stubbed},
	"node:sea":                {Level: Stubbed},
	"node:test":               {Level: Stubbed},
	"node:test/reporters":     {Level: Stubbed},
	"node:wasi":               {Level: Stubbed},
	"node:trace_events":       {Level: Stubbed},
	"node:constants":          {Level: Stubbed},
	"node:domain":             {Level: Stubbed},
	"node:_http_agent":        {Level: Stubbed},
	"node:_http_client":       {Level: Stubbed},
	"node:_http_common":       {Level: Stubbed},
	"node:_http_incoming":     {Level: Stubbed},
	"node:_http_outgoing":     {Level: Stubbed},
	"node:_http_server":       {Level: Stubbed},
	"node:_stream_wrap":       {Level: Stubbed},
	"node:_tls_common":        {Level: Stubbed},
	"node:_tls_wrap":          {Level: Stubbed},
}

// ModuleNames returns the specifiers of Modules with level l, sorted.
func ModuleNames(l Level) []string {
	var names []string
	for name, s := range Modules {
		if s.Level == l {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// ModuleTable renders Modules as a Markdown table (module, support,
// notes), sorted by level then name, for docs/porting.md.
func ModuleTable() string {
	var b strings.Builder
	b.WriteString("| module | support | notes |\n| --- | --- | --- |\n")
	for _, l := range []Level{Supported, Partial, Stubbed} {
		for _, name := range ModuleNames(l) {
			s := Modules[name]
			note := s.Note
			if s.AliasOf != "" {
				note = strings.TrimSpace("the same as " + s.AliasOf + " " + note)
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", name, l, note)
		}
	}
	return b.String()
}
