package fleetpage

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func TestSignIn(t *testing.T) {
	h := Handler("s3cret")
	post := func(token, next string) *httptest.ResponseRecorder {
		form := url.Values{"token": {token}, "next": {next}}
		req := httptest.NewRequest("POST", "/signin", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}
	for _, tok := range []string{"", "wrong", "s3cret "} {
		if w := post(tok, "/"); w.Code != http.StatusUnauthorized || len(w.Result().Cookies()) != 0 {
			t.Errorf("sign in with %q: %d, cookies %v; want 401 and none", tok, w.Code, w.Result().Cookies())
		}
	}
	w := post("s3cret", "/objects/Counter/x")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/objects/Counter/x" {
		t.Fatalf("sign in: %d to %q, want 303 to /objects/Counter/x", w.Code, w.Header().Get("Location"))
	}
	cs := w.Result().Cookies()
	if len(cs) != 1 || cs[0].Name != CookieName || !cs[0].HttpOnly || cs[0].SameSite != http.SameSiteStrictMode || strings.Contains(cs[0].Value, "s3cret") {
		t.Fatalf("session cookie %+v: want one HttpOnly SameSite=Strict %s not holding the token", cs, CookieName)
	}

	// The cookie opens the page; without it the page is the sign-in form.
	for _, c := range []struct {
		cookie *http.Cookie
		want   string
	}{
		{nil, `action="/signin"`},
		{&http.Cookie{Name: CookieName, Value: "forged"}, `action="/signin"`},
		{cs[0], `id="members"`},
	} {
		req := httptest.NewRequest("GET", "/", nil)
		if c.cookie != nil {
			req.AddCookie(c.cookie)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), c.want) {
			t.Errorf("GET / with cookie %v: %d, want 200 with %s", c.cookie, w.Code, c.want)
		}
		if SignedIn(req, "s3cret") != (c.want == `id="members"`) {
			t.Errorf("SignedIn with cookie %v: %v", c.cookie, !(c.want == `id="members"`))
		}
		if SignedIn(req, "other") {
			t.Errorf("cookie %v signs in under another token", c.cookie)
		}
	}
}

func TestNoToken(t *testing.T) {
	w := httptest.NewRecorder()
	Handler("").ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), "admin.token") {
		t.Fatalf("no token: %d %q, want 403 naming admin.token", w.Code, w.Body.String())
	}
}

func TestSafeNext(t *testing.T) {
	for in, want := range map[string]string{
		"":                    "/",
		"/":                   "/",
		"/objects/ChatRoom/a": "/objects/ChatRoom/a",
		"//evil.example/":     "/",
		"https://evil/":       "/",
		`/\evil`:              "/",
	} {
		if got := safeNext(in); got != want {
			t.Errorf("safeNext(%q) = %q, want %q", in, got, want)
		}
	}
}
