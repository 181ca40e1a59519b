package libsqladmin

import (
	"errors"
	"fmt"
	"net/http"
)

// Sentinel errors. Test with errors.Is.
var (
	// ErrNotFound: the namespace does not exist.
	ErrNotFound = errors.New("namespace not found")
	// ErrUnauthorized: the admin key is missing or wrong.
	ErrUnauthorized = errors.New("admin API refused the admin key")
	// ErrUnavailable: the admin API could not be reached or answered
	// 502, 503 or 504. Its Unavailable method lets the Worker API
	// (worker.Unavailable) recognise it.
	ErrUnavailable error = unavailable("libSQL admin API unavailable")
	// ErrUnsupported: the server lacks the endpoint (sqld has no list).
	ErrUnsupported = errors.New("not supported by this libSQL server")
)

// unavailable is the type of ErrUnavailable.
type unavailable string

func (e unavailable) Error() string { return string(e) }

// Unavailable reports true: the admin API could not be reached or did not
// answer in time.
func (unavailable) Unavailable() bool { return true }

// Error is an admin API call the server refused.
type Error struct {
	// Op is the operation ("create", "delete", "config", "list").
	Op string
	// Namespace is the namespace concerned ("" for list).
	Namespace string
	// Status is the HTTP status.
	Status int
	// Code is the error code when the server sent one (dwk libsql does).
	Code string
	// Message is the server's description.
	Message string
	// kind is the sentinel the status maps to, if any.
	kind error
}

// Error returns "libsql admin <op> <ns>: <message> (HTTP <status>)".
func (e *Error) Error() string {
	s := "libsql admin " + e.Op
	if e.Namespace != "" {
		s += " " + e.Namespace
	}
	s += ": "
	if e.Code != "" {
		s += e.Code + ": "
	}
	return s + fmt.Sprintf("%s (HTTP %d)", e.Message, e.Status)
}

// Unwrap returns the sentinel the failure maps to (ErrNotFound…), if any.
func (e *Error) Unwrap() error { return e.kind }

// classify maps a status (and, for sqld's 400s, the message) to a sentinel.
func classify(status int, code, msg string) error {
	switch {
	case status == http.StatusNotFound, code == "NAMESPACE_NOT_FOUND", isNotFoundMessage(msg):
		return ErrNotFound
	case status == http.StatusUnauthorized, status == http.StatusForbidden:
		return ErrUnauthorized
	case status == http.StatusBadGateway, status == http.StatusServiceUnavailable, status == http.StatusGatewayTimeout:
		return ErrUnavailable
	case status == http.StatusMethodNotAllowed:
		return ErrUnsupported
	}
	return nil
}
