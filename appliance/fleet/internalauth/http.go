package internalauth

import (
	"errors"
	"net/http"
)

// Middleware passes signed requests to next (as Verify returns them) and
// answers every other request with 401 and a message saying what is
// wrong, or 503 with Retry-After when the nonce memory is full.
func (a *Auth) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r2, err := a.Verify(r)
		if err != nil {
			status := http.StatusUnauthorized
			if errors.Is(err, ErrBusy) {
				status = http.StatusServiceUnavailable
				w.Header().Set("Retry-After", "1")
			}
			msg := "dwk internal endpoint: " + err.Error()
			switch {
			case errors.Is(err, ErrMissing):
				msg += " (no " + Header + " header); only replicas of the fleet may call it"
			case errors.Is(err, ErrBadMAC):
				msg += " (check that every replica uses the same fleet secret)"
			}
			http.Error(w, msg, status)
			return
		}
		next.ServeHTTP(w, r2)
	})
}

// Transport returns a RoundTripper that signs every request and sends it
// with base (http.DefaultTransport when nil). The caller's request is not
// modified.
func (a *Auth) Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &transport{base: base, auth: a}
}

type transport struct {
	base http.RoundTripper
	auth *Auth
}

var _ http.RoundTripper = (*transport)(nil)

// RoundTrip implements http.RoundTripper.
func (t *transport) RoundTrip(r *http.Request) (*http.Response, error) {
	r2, err := t.auth.Sign(r)
	if err != nil {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, err
	}
	return t.base.RoundTrip(r2)
}

// CloseIdleConnections closes the base transport's pooled connections.
func (t *transport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
