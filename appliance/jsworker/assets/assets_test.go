package assets

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

func fixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"index.html":      "home",
		"about.html":      "about",
		"blog/index.html": "blog",
		"style.css":       "body{}",
		"404.html":        "not found",
		"sub/404.html":    "sub not found",
		"sub/page.html":   "sub page",
	} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type want struct {
	status   int // 0: not served
	body     string
	location string
}

func check(t *testing.T, s *Server, target string, w want) {
	t.Helper()
	rec := httptest.NewRecorder()
	served := s.Serve(rec, httptest.NewRequest("GET", target, nil))
	if w.status == 0 {
		if served {
			t.Errorf("%s: served %d %q, want not served", target, rec.Code, rec.Body.String())
		}
		return
	}
	if !served || rec.Code != w.status || rec.Body.String() != w.body && w.location == "" || rec.Header().Get("Location") != w.location {
		t.Errorf("%s: got served=%v %d %q Location %q, want %d %q Location %q", target, served, rec.Code, rec.Body.String(), rec.Header().Get("Location"), w.status, w.body, w.location)
	}
}

func TestHTMLHandling(t *testing.T) {
	dir := fixture(t)
	for _, tc := range []struct {
		mode  string
		cases map[string]want
	}{
		{AutoTrailingSlash, map[string]want{
			"/": {200, "home", ""}, "/index.html": {307, "", "/"}, "/about": {200, "about", ""}, "/about.html": {307, "", "/about"},
			"/about/": {307, "", "/about"}, "/blog": {307, "", "/blog/"}, "/blog/": {200, "blog", ""}, "/blog/index.html": {307, "", "/blog/"},
			"/style.css": {200, "body{}", ""}, "/nope": {}, "/about?x=1": {200, "about", ""}, "/about.html?x=1": {307, "", "/about?x=1"},
		}},
		{ForceTrailingSlash, map[string]want{
			"/about": {307, "", "/about/"}, "/about/": {200, "about", ""}, "/blog": {307, "", "/blog/"}, "/blog/": {200, "blog", ""},
			"/about.html": {307, "", "/about/"}, "/style.css": {200, "body{}", ""},
		}},
		{DropTrailingSlash, map[string]want{
			"/about": {200, "about", ""}, "/about/": {307, "", "/about"}, "/blog": {200, "blog", ""}, "/blog/": {307, "", "/blog"},
			"/blog/index.html": {307, "", "/blog"}, "/": {200, "home", ""},
		}},
		{NoHTMLHandling, map[string]want{
			"/about": {}, "/about.html": {200, "about", ""}, "/blog/": {}, "/blog/index.html": {200, "blog", ""},
		}},
	} {
		s, err := New(Config{Files: os.DirFS(dir), HTMLHandling: tc.mode})
		if err != nil {
			t.Fatal(err)
		}
		for target, w := range tc.cases {
			t.Run(tc.mode+target, func(t *testing.T) { check(t, s, target, w) })
		}
	}
}

func TestNotFoundHandling(t *testing.T) {
	dir := fixture(t)
	for _, tc := range []struct {
		mode   string
		target string
		w      want
	}{
		{NotFoundNone, "/missing", want{}},
		{NotFound404, "/missing", want{404, "not found", ""}},
		{NotFound404, "/sub/deeper/missing", want{404, "sub not found", ""}},
		{NotFoundSPA, "/app/route/1", want{200, "home", ""}},
	} {
		s, err := New(Config{Files: os.DirFS(dir), NotFoundHandling: tc.mode})
		if err != nil {
			t.Fatal(err)
		}
		check(t, s, tc.target, tc.w)
	}
}

func TestConditionalRequests(t *testing.T) {
	s, err := New(Config{Files: os.DirFS(fixture(t))})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	s.Serve(rec, httptest.NewRequest("GET", "/style.css", nil))
	tag := rec.Header().Get("ETag")
	if tag == "" || rec.Header().Get("Content-Type") != "text/css; charset=utf-8" {
		t.Fatalf("headers: %v", rec.Header())
	}
	r := httptest.NewRequest("GET", "/style.css", nil)
	r.Header.Set("If-None-Match", tag)
	rec = httptest.NewRecorder()
	s.Serve(rec, r)
	if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
		t.Errorf("If-None-Match: got %d %q, want 304", rec.Code, rec.Body.String())
	}
	rec = httptest.NewRecorder()
	if s.Serve(rec, httptest.NewRequest("POST", "/style.css", nil)) {
		t.Error("a POST was served from assets")
	}
}

func TestRoutes(t *testing.T) {
	rs := Routes{"/api/*", "!/api/docs/*", "/exact"}
	for path, want := range map[string]bool{
		"/api/x": true, "/api/": true, "/api/docs/a": false, "/exact": true, "/exact/no": false, "/other": false,
	} {
		if got := rs.Match(path); got != want {
			t.Errorf("Match(%q) = %v, want %v", path, got, want)
		}
	}
}
