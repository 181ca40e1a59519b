package internalauth

import (
	"errors"
	"net/http"
)

// Middleware passes requests carrying the fleet's key to next and answers
// every other request with 401 and a message saying what is wrong. It
// removes the Authorization header before next sees the request, so
// handlers (and the object code behind them) never see the key.
func (k Key) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := k.Verify(r); err != nil {
			w.Header().Set("WWW-Authenticate", Scheme)
			msg := "dwk internal endpoint: wrong internal key (check that every replica uses the same fleet secret)"
			if errors.Is(err, ErrMissing) {
				msg = "dwk internal endpoint: missing \"Authorization: " + Scheme + " <key>\"; only replicas of the fleet may call it"
			}
			http.Error(w, msg, http.StatusUnauthorized)
			return
		}
		r2 := r.Clone(r.Context())
		r2.Header.Del("Authorization")
		next.ServeHTTP(w, r2)
	})
}

// Transport returns a RoundTripper that sets the fleet's key as the
// Authorization header of every request and sends it with base
// (http.DefaultTransport when nil). The caller's request is not modified.
func (k Key) Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &transport{base: base, value: k.HeaderValue()}
}

type transport struct {
	base  http.RoundTripper
	value string
}

var _ http.RoundTripper = (*transport)(nil)

// RoundTrip implements http.RoundTripper.
func (t *transport) RoundTrip(r *http.Request) (*http.Response, error) {
	r2 := r.Clone(r.Context())
	r2.Header.Set("Authorization", t.value)
	return t.base.RoundTrip(r2)
}
