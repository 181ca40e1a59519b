package worker

import (
	"errors"
	"net/http"
)

// ErrUnavailable is matched (errors.Is) by the errors a binding returns
// when its store could not be reached or did not answer in time, or when
// the replica cannot serve the call right now (it is draining, or an
// object moved): the same request may succeed if retried later. Test
// with Unavailable, which also recognises clients below the Worker API.
var ErrUnavailable = errors.New("unavailable")

// Outage returns an error with text msg that matches ErrUnavailable:
// bindings declare their outage sentinels with it.
func Outage(msg string) error { return outage(msg) }

type outage string

func (o outage) Error() string { return string(o) }

// Is makes an outage match ErrUnavailable.
func (o outage) Is(target error) bool { return target == ErrUnavailable }

// Unavailable reports whether err is an outage: it matches ErrUnavailable,
// or an error in its chain has an Unavailable() bool method that returns
// true (the convention of the store clients, which do not import the
// Worker API).
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrUnavailable) {
		return true
	}
	var u interface{ Unavailable() bool }
	return errors.As(err, &u) && u.Unavailable()
}

// RetryAfter is the Retry-After (seconds) that WriteError sends with 503.
const RetryAfter = "1"

// WriteError answers a request that failed with err, so a client can tell
// "retry later" from "broken": 503 with Retry-After when Unavailable(err),
// 500 otherwise. The body is err's text.
func WriteError(w http.ResponseWriter, err error) {
	if Unavailable(err) {
		w.Header().Set("Retry-After", RetryAfter)
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	http.Error(w, err.Error(), http.StatusInternalServerError)
}
