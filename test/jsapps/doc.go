// Package jsapps runs Workers projects written in JavaScript and
// TypeScript, as they are, on real dwk processes, and drives them the way
// their users do: over HTTP, over WebSockets, and in headless Chromium
// (Debian's chromium package, driven over the DevTools protocol by
// chromedp).
//
// chat/ is a chat with rooms: a Hono app that validates with zod, a page
// served from the wrangler assets directory, and a ChatRoom Durable Object
// with SQLite storage, hibernatable WebSockets and JavaScript RPC. Its npm
// packages are installed by `scripts/tools.sh node` (npm ci); without
// them, or without chromium, the tests skip, and fail under CI=true
// (package needtool).
//
// The tests serve it with `dwk serve --config chat/wrangler.jsonc` in
// local mode, across a restart, and on a 3-replica central fleet
// (package fleettest) through the kill -9 of the replica that holds a
// room.
package jsapps
