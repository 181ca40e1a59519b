// Package protocol is the contract between the dwk front door (Caddy with
// the dwk modules, package caddy/frontdoor) and the app server behind it:
// the headers and statuses each side sets and what the other does with
// them. It has no dependencies, so the app server can import it without
// Caddy.
//
// # Retry answers (app server → front door)
//
// A replica that must not serve a request it received from a front door —
// it is draining — answers 503 Service Unavailable with the header
// X-Dwk-Retry: 1 (WriteRetry) before it reads the request body or does any
// work for it. The front door then replays the request, body included, on
// another ready replica before any byte reaches the client. This holds for
// every method, including POST: the contract is that a retry answer means
// "nothing happened". A 503 without the header is passed to the client
// unchanged.
//
// Requests forwarded between replicas (internal calls authenticated with
// the fleet secret) are not front-door requests: a draining replica keeps
// serving those for the objects it still holds until it hands their leases
// back.
//
// A replica that receives an object request while another replica holds
// the object's lease forwards it there itself (one extra hop, WebSocket
// upgrades included); it never answers it with a retry.
//
// # Object header (front door → app server)
//
// The front door sets X-Dwk-Object-Id on every request it proxies to the
// object id its affinity rules found (64 hex digits), or to "" when the
// request addresses no object; a value a client sent is overwritten. It is
// informational (logs, metrics): the app server derives ids itself and
// must not trust the header for routing or authorization.
//
// The app server names the member that served a response (X-Dwk-Member);
// the front door passes it through.
//
// # Draining public listeners
//
// From the moment a replica starts draining until its public listener
// stops, every answer it gives there asks the client to close the
// connection after it (CloseAfter): a load balancer's pooled connections
// are closed by their answers, cleanly, instead of being cut while idle
// when the listener stops, where a request sent at that instant would be
// lost unanswered.
package protocol

import (
	"net/http"

	"github.com/dwk/fleet/appliance/worker"
)

// Header names and values.
const (
	// RetryHeader marks a 503 as a retry answer.
	RetryHeader = "X-Dwk-Retry"
	// RetryValue is RetryHeader's value.
	RetryValue = "1"
	// ObjectIDHeader carries the object id the front door routed by.
	ObjectIDHeader = "X-Dwk-Object-Id"
	// MemberHeader names the member that served a response; the app server
	// sets it.
	MemberHeader = "X-Dwk-Member"
)

// WriteRetry answers r with a retry answer: 503 with RetryHeader (and
// Retry-After, for a client that gets it directly). The caller must not
// have read r's body or acted on r.
func WriteRetry(w http.ResponseWriter) {
	w.Header().Set(RetryHeader, RetryValue)
	w.Header().Set("Retry-After", worker.RetryAfter)
	w.Header().Set("Cache-Control", "no-store")
	// The connection may carry an unread body; close it rather than drain.
	w.Header().Set("Connection", "close")
	http.Error(w, "this replica cannot serve the request now (draining, or its stores are out of reach); retry on another replica", http.StatusServiceUnavailable)
}

// IsRetry reports whether a response is a retry answer.
func IsRetry(status int, h http.Header) bool {
	return status == http.StatusServiceUnavailable && h.Get(RetryHeader) == RetryValue
}

// CloseAfter asks the server to close r's connection once it has answered
// it: Connection: close over HTTP/1.1, a graceful GOAWAY over HTTP/2. A
// WebSocket upgrade is left alone: its connection becomes the socket.
func CloseAfter(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Upgrade") == "" {
		w.Header().Set("Connection", "close")
	}
}
