// Package fleetpage is the fleet page of a replica's admin listener: one
// page of embedded HTML, CSS and JavaScript (no build step) that shows the
// fleet live by polling the admin JSON API, behind a sign-in form that
// trades the admin token for an HttpOnly session cookie.
//
// Routes (all GET unless marked):
//
//	/                         the page, or the sign-in form
//	/objects/{class}/{name}   the page opened on one object's lease history
//	/assets/{file}            the page's CSS and JavaScript
//	POST /signin              form field "token": sets the session cookie
//	POST /signout             clears it
//
// The page and its assets carry no fleet data: everything it shows comes
// from /admin/* calls, which the server lets through with the cookie (see
// SignedIn) or a bearer token.
package fleetpage

import (
	"embed"
	"html/template"
	"net/http"
	"strings"
)

//go:embed page.html signin.html assets
var files embed.FS

var signinPage = template.Must(template.ParseFS(files, "signin.html"))

// Handler serves the page routes for the admin token token. With no token
// configured the page says how to enable it, with 403.
func Handler(token string) http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, r *http.Request) {
		if token == "" {
			signin(w, r, http.StatusForbidden, "The admin API is disabled: set admin.token in dwk.json.")
			return
		}
		if !SignedIn(r, token) {
			signin(w, r, http.StatusOK, "")
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		http.ServeFileFS(w, r, files, "page.html")
	}
	mux.HandleFunc("GET /{$}", page)
	mux.HandleFunc("GET /objects/{class}/{name}", page)
	mux.Handle("GET /assets/", http.FileServerFS(files))
	mux.HandleFunc("POST /signin", func(w http.ResponseWriter, r *http.Request) {
		if token == "" {
			signin(w, r, http.StatusForbidden, "The admin API is disabled: set admin.token in dwk.json.")
			return
		}
		if !tokenMatches(r.PostFormValue("token"), token) {
			signin(w, r, http.StatusUnauthorized, "Wrong token.")
			return
		}
		http.SetCookie(w, sessionCookie(r, token))
		http.Redirect(w, r, safeNext(r.PostFormValue("next")), http.StatusSeeOther)
	})
	mux.HandleFunc("POST /signout", func(w http.ResponseWriter, r *http.Request) {
		c := sessionCookie(r, "")
		c.MaxAge = -1
		http.SetCookie(w, c)
		http.Redirect(w, r, "/", http.StatusSeeOther)
	})
	return mux
}

// signin answers with the sign-in form, which posts back to where the
// visitor was going.
func signin(w http.ResponseWriter, r *http.Request, code int, problem string) {
	next := r.URL.Path
	if r.Method == http.MethodPost {
		next = r.PostFormValue("next")
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	signinPage.Execute(w, struct{ Problem, Next string }{problem, safeNext(next)})
}

// safeNext keeps redirects on this listener: a local path, or "/".
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.Contains(next, `\`) {
		return "/"
	}
	return next
}
