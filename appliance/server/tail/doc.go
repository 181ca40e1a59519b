// Package tail is a replica's live log of its workers' invocations, as
// `dwk tail` shows it: one Event per request a worker served, with the
// log records written while it ran, in the JSON form `wrangler tail`
// prints. A Hub fans events out to subscribers, each with its Filter;
// Handler wraps the replica's slog handler so that records written under
// a request's context (console.log included) join the request's event.
// Nothing is collected while nobody tails a worker.
package tail
