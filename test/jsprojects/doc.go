// Package jsprojects runs Workers projects written for Cloudflare, in
// JavaScript and TypeScript with their npm dependencies, on the real dwk
// binary: each project under projects/ alone in local mode (`dwk serve
// --config <project>/wrangler.*`), and all of them together on a
// two-replica central fleet (test/fleettest), with requests through both
// front doors. The tests assert what the apps do, as a client sees it:
// D1 with migrations and sessions, KV, R2 uploads and downloads, queues
// with retries and a dead-letter queue, cron, Durable Objects over
// JavaScript RPC with storage and alarms, service bindings, streams, the
// host's answers to misbehaving code, Node.js compatibility, Web APIs,
// HTMLRewriter and WebAssembly.
//
// The projects' node_modules come from `npm ci` (scripts/tools.sh node);
// without them the tests skip, and under CI they fail.
package jsprojects
