package fleetpage

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
)

// CookieName is the fleet page's session cookie. Its value is an HMAC of
// the admin token, not the token: it is valid for as long as the token
// is, on every replica sharing the token, and changing admin.token signs
// every page out.
const CookieName = "dwk_admin"

// sessionLabel is what the cookie's HMAC signs.
const sessionLabel = "dwk fleet page session v1"

// session is the cookie value for token.
func session(token string) string {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte(sessionLabel))
	return hex.EncodeToString(m.Sum(nil))
}

// SignedIn reports whether r carries the session cookie of token (which
// must not be empty).
func SignedIn(r *http.Request, token string) bool {
	c, err := r.Cookie(CookieName)
	return err == nil && token != "" && subtle.ConstantTimeCompare([]byte(c.Value), []byte(session(token))) == 1
}

// tokenMatches compares a signed-in token with the admin token in
// constant time.
func tokenMatches(got, token string) bool {
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}

// sessionCookie is the cookie for token: HttpOnly, SameSite=Strict (so no
// other site's page can post with it), Secure over TLS, for this session
// of the browser only.
func sessionCookie(r *http.Request, token string) *http.Cookie {
	return &http.Cookie{
		Name: CookieName, Value: session(token), Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	}
}
