// Package hranaclient is a small Hrana-over-HTTP client for libSQL servers
// (sqld, Turso, dwk libsql), made for the places where one round trip
// matters: [Client.Batch] and [Client.Execute] each cost exactly one HTTP
// request (a /v3/pipeline request carrying the work and a "close"), and
// every request the client sends is counted ([Client.RoundTrips],
// [Config.OnRoundTrip]), and also against the unit of work it was sent for
// when the context carries a [Tally] (a server tags each request it handles
// with one, so a request's own round trips are counted apart from
// background work).
//
// Multi-request work — an interactive transaction — goes through a
// [Stream], which carries the server's baton from one request to the next.
//
// # Namespaces
//
// [Config.Namespace] is sent as the x-namespace header, which selects a
// database on sqld started with namespaces and on dwk libsql. Turso and
// sqld without namespaces have one database per URL: leave Namespace empty
// and use that database's URL instead.
//
// # Versions
//
// The client speaks Hrana 3 (/v3/pipeline). If the server answers that path
// with a plain 404 (a server that only knows Hrana 2), the client switches
// to /v2/pipeline for good and resends; the requests it builds are valid in
// both versions as long as callers avoid Hrana 3 only features (the
// is_autocommit condition, get_autocommit).
//
// # Errors and retries
//
// A statement or request the server refuses yields a [*Error] with the
// Hrana error code (for example "SQLITE_CONSTRAINT"). A transport failure
// or timeout yields an error wrapping [ErrUnavailable]; if the request may
// have reached the server (it was written, then the response was lost), it
// also wraps [ErrOutcomeUnknown]: the work may or may not have been done,
// and only the caller can decide whether repeating it is safe. The client
// itself retries only requests that were never written (dial errors), a
// few times within the call's deadline.
package hranaclient
