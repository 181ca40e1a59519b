package hranaclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// Sentinel errors. Test with errors.Is.
var (
	// ErrUnavailable marks a failure to reach the server or to get its
	// answer in time: dial errors, resets, timeouts, 502/503/504 and 429.
	// Its Unavailable method lets the Worker API (worker.Unavailable)
	// recognise it without this client importing the API.
	ErrUnavailable error = unavailable("libSQL server unavailable")
	// ErrOutcomeUnknown marks a request that may have been executed: it
	// was sent but its response was lost. Never repeat such a request
	// blindly; re-read the state it would have changed instead.
	ErrOutcomeUnknown = errors.New("outcome unknown: the request may have been executed")
	// ErrStreamClosed is returned by a Stream that the server or a
	// failure has closed; its transaction, if any, is rolled back.
	ErrStreamClosed = errors.New("hrana stream closed")
)

// unavailable is the type of ErrUnavailable.
type unavailable string

func (e unavailable) Error() string { return string(e) }

// Unavailable reports true: the server could not be reached or did not
// answer in time.
func (unavailable) Unavailable() bool { return true }

// Error is a failure the server reported: a statement that failed, or a
// request it refused as a whole.
type Error struct {
	// Op is the client operation ("batch", "execute", "stream execute"…).
	Op string
	// Status is the HTTP status of a request refused as a whole, 0 for a
	// statement or batch-step error inside a successful response.
	Status int
	// Code is the Hrana error code, e.g. "SQLITE_CONSTRAINT",
	// "NAMESPACE_NOT_FOUND"; it may be empty (sqld sends protocol errors
	// without one).
	Code string
	// Message is the server's description.
	Message string
}

// Error returns "hrana <op>: <code>: <message> (HTTP <status>)".
func (e *Error) Error() string {
	s := "hrana " + e.Op + ": "
	if e.Code != "" {
		s += e.Code + ": "
	}
	s += e.Message
	if e.Status != 0 {
		s += fmt.Sprintf(" (HTTP %d)", e.Status)
	}
	return s
}

// Unwrap reports the statuses that mean "unavailable": 429 and 503 (the
// request was not executed) and 502 and 504 (a proxy gave up; the outcome
// is unknown).
func (e *Error) Unwrap() []error {
	switch e.Status {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		return []error{ErrUnavailable}
	case http.StatusBadGateway, http.StatusGatewayTimeout:
		return []error{ErrUnavailable, ErrOutcomeUnknown}
	}
	return nil
}

// IsCode reports whether err is (or wraps) an *Error with the given code.
func IsCode(err error, code string) bool {
	var he *Error
	return errors.As(err, &he) && he.Code == code
}

// TransportError is a request that got no usable response: the dial
// failed, the connection broke, the deadline passed or the caller gave up.
type TransportError struct {
	// Op is the client operation.
	Op string
	// URL is where the request went.
	URL string
	// Sent is true when the request may have reached the server.
	Sent bool
	// Err is the underlying failure (a context error on timeouts).
	Err error
}

// Error describes the failure and whether the outcome is unknown.
func (e *TransportError) Error() string {
	if e.Sent {
		return fmt.Sprintf("hrana %s %s: no response, outcome unknown: %v", e.Op, e.URL, e.Err)
	}
	return fmt.Sprintf("hrana %s %s: not sent: %v", e.Op, e.URL, e.Err)
}

// Unwrap returns Err, ErrOutcomeUnknown if Sent, and ErrUnavailable unless
// the caller cancelled the context itself.
func (e *TransportError) Unwrap() []error {
	errs := []error{e.Err}
	if !errors.Is(e.Err, context.Canceled) {
		errs = append(errs, ErrUnavailable)
	}
	if e.Sent {
		errs = append(errs, ErrOutcomeUnknown)
	}
	return errs
}
