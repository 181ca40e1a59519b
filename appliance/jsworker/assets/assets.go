// Package assets serves a Workers project's static assets (wrangler's
// assets.directory) as Cloudflare's Workers Static Assets do: HTML pages
// by their names with or without .html and trailing slashes
// (html_handling), a 404 page or a single-page app's index for what is
// not there (not_found_handling), strong ETags and conditional requests.
//
// # Differences
//
// The _headers and _redirects files are not read; a Range request gets
// the whole file, as Go's http.ServeContent would not be told about
// ranges here.
package assets

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"
)

// HTML handling modes (wrangler's assets.html_handling).
const (
	AutoTrailingSlash  = "auto-trailing-slash"
	ForceTrailingSlash = "force-trailing-slash"
	DropTrailingSlash  = "drop-trailing-slash"
	NoHTMLHandling     = "none"
)

// Not-found handling modes (wrangler's assets.not_found_handling).
const (
	NotFoundNone = "none"
	NotFound404  = "404-page"
	NotFoundSPA  = "single-page-application"
)

// Config says where the assets are and how to find them.
type Config struct {
	// Files are the assets: a directory (os.DirFS) or a built project's
	// archive. Required.
	Files fs.FS
	// HTMLHandling is one of the HTML handling modes. Default:
	// AutoTrailingSlash.
	HTMLHandling string
	// NotFoundHandling is one of the not-found modes. Default:
	// NotFoundNone.
	NotFoundHandling string
}

// cacheControl is what Cloudflare sends with an asset: revalidate each
// time, which the ETag makes cheap.
const cacheControl = "public, max-age=0, must-revalidate"

// Server serves one directory of assets. It is safe for concurrent use.
type Server struct {
	cfg   Config
	mu    sync.Mutex
	etags map[string]etag // by path, while the file's size and time hold
}

type etag struct {
	size int64
	mod  time.Time
	tag  string
}

// New checks cfg and returns its server.
func New(cfg Config) (*Server, error) {
	if cfg.HTMLHandling == "" {
		cfg.HTMLHandling = AutoTrailingSlash
	}
	if cfg.NotFoundHandling == "" {
		cfg.NotFoundHandling = NotFoundNone
	}
	switch cfg.HTMLHandling {
	case AutoTrailingSlash, ForceTrailingSlash, DropTrailingSlash, NoHTMLHandling:
	default:
		return nil, fmt.Errorf("assets: unknown html_handling %q", cfg.HTMLHandling)
	}
	switch cfg.NotFoundHandling {
	case NotFoundNone, NotFound404, NotFoundSPA:
	default:
		return nil, fmt.Errorf("assets: unknown not_found_handling %q", cfg.NotFoundHandling)
	}
	if cfg.Files == nil {
		return nil, fmt.Errorf("assets: no files")
	}
	if _, err := fs.Stat(cfg.Files, "."); err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	return &Server{cfg: cfg, etags: map[string]etag{}}, nil
}

// Serve answers r from the assets when they have something for it: a
// file, a redirect to a page's canonical path, or the not-found page. It
// reports false (writing nothing) when they do not, so that the worker
// answers. Only GET and HEAD are served.
func (s *Server) Serve(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	p := path.Clean("/" + r.URL.Path)
	if strings.HasSuffix(r.URL.Path, "/") && p != "/" {
		p += "/"
	}
	res := s.resolve(p)
	switch {
	case res.redirect != "":
		target := res.redirect
		if r.URL.RawQuery != "" {
			target += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, target, http.StatusTemporaryRedirect)
		return true
	case res.file != "":
		return s.file(w, r, res.file, http.StatusOK)
	}
	switch s.cfg.NotFoundHandling {
	case NotFoundSPA:
		if s.exists("/index.html") {
			return s.file(w, r, "/index.html", http.StatusOK)
		}
	case NotFound404:
		for dir := path.Dir(strings.TrimSuffix(p, "/") + "/x"); ; dir = path.Dir(dir) {
			if f := path.Join(dir, "404.html"); s.exists(f) {
				return s.file(w, r, f, http.StatusNotFound)
			}
			if dir == "/" {
				break
			}
		}
	}
	return false
}

// ServeHTTP is Serve with a plain 404 for what the assets lack: the
// project's ASSETS binding.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.Serve(w, r) {
		http.NotFound(w, r)
	}
}

// resolved is what a path resolves to: a file to serve, a path to
// redirect to, or neither.
type resolved struct{ file, redirect string }

// resolve applies the HTML handling mode to p (clean, trailing slash
// kept).
func (s *Server) resolve(p string) resolved {
	slash := strings.HasSuffix(p, "/")
	base := strings.TrimSuffix(p, "/")
	if !strings.HasSuffix(p, ".html") && !slash && s.exists(p) {
		return resolved{file: p}
	}
	mode := s.cfg.HTMLHandling
	if mode == NoHTMLHandling {
		if s.exists(p) {
			return resolved{file: p}
		}
		return resolved{}
	}
	// A page is base.html or base/index.html; its canonical path depends
	// on the mode and on which of the two exists.
	page := func(b string) (file string, isIndex bool) {
		if b != "" && s.exists(b+".html") {
			return b + ".html", false
		}
		if s.exists(b + "/index.html") {
			return b + "/index.html", true
		}
		return "", false
	}
	canonical := func(b string, isIndex bool) string {
		if b == "" {
			return "/"
		}
		switch mode {
		case ForceTrailingSlash:
			return b + "/"
		case DropTrailingSlash:
			return b
		}
		if isIndex {
			return b + "/"
		}
		return b
	}
	if strings.HasSuffix(p, ".html") {
		if !s.exists(p) {
			return resolved{}
		}
		b := strings.TrimSuffix(strings.TrimSuffix(p, ".html"), "/index")
		if f, idx := page(b); f == p {
			return resolved{redirect: canonical(b, idx)}
		}
		return resolved{file: p}
	}
	f, idx := page(base)
	if f == "" {
		return resolved{}
	}
	if want := canonical(base, idx); want != p {
		return resolved{redirect: want}
	}
	return resolved{file: f}
}

// exists reports whether p names a regular file of the assets.
func (s *Server) exists(p string) bool {
	st, err := fs.Stat(s.cfg.Files, s.local(p))
	return err == nil && st.Mode().IsRegular()
}

// local is p as a name in Files.
func (s *Server) local(p string) string {
	if p = strings.TrimPrefix(path.Clean("/"+p), "/"); p == "" {
		return "."
	}
	return p
}

// file writes the asset p with status, answering a matching
// If-None-Match with 304.
func (s *Server) file(w http.ResponseWriter, r *http.Request, p string, status int) bool {
	f, err := s.cfg.Files.Open(s.local(p))
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return false
	}
	tag, err := s.etag(p, st)
	if err != nil {
		return false
	}
	h := w.Header()
	h.Set("ETag", tag)
	h.Set("Cache-Control", cacheControl)
	ctype := mime.TypeByExtension(path.Ext(p))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	h.Set("Content-Type", ctype)
	if status == http.StatusOK && matches(r.Header.Get("If-None-Match"), tag) {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	h.Set("Content-Length", fmt.Sprint(st.Size()))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		io.Copy(w, f)
	}
	return true
}

// etag is the file's strong ETag, a hash of its content, computed once
// while its size and modification time stay.
func (s *Server) etag(p string, st fs.FileInfo) (string, error) {
	s.mu.Lock()
	e, ok := s.etags[p]
	s.mu.Unlock()
	if ok && e.size == st.Size() && e.mod.Equal(st.ModTime()) {
		return e.tag, nil
	}
	f, err := s.cfg.Files.Open(s.local(p))
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	tag := `"` + hex.EncodeToString(h.Sum(nil)[:16]) + `"`
	s.mu.Lock()
	s.etags[p] = etag{size: st.Size(), mod: st.ModTime(), tag: tag}
	s.mu.Unlock()
	return tag, nil
}

// matches reports whether an If-None-Match header names tag.
func matches(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || t == tag || strings.TrimPrefix(t, "W/") == tag {
			return true
		}
	}
	return false
}

// Routes is wrangler's assets.run_worker_first as a list of route
// patterns: paths the worker answers before the assets are looked at. A
// pattern's '*' matches any run of characters; a pattern starting with
// '!' excludes what it matches, and exclusions win.
type Routes []string

// Match reports whether path is one of the routes.
func (rs Routes) Match(path string) bool {
	in := false
	for _, r := range rs {
		if neg, ok := strings.CutPrefix(r, "!"); ok {
			if glob(neg, path) {
				return false
			}
			continue
		}
		in = in || glob(r, path)
	}
	return in
}

// glob matches s against a pattern whose '*' matches any run of
// characters.
func glob(pattern, s string) bool {
	for {
		star := strings.IndexByte(pattern, '*')
		if star < 0 {
			return pattern == s
		}
		if !strings.HasPrefix(s, pattern[:star]) {
			return false
		}
		s, pattern = s[star:], pattern[star+1:]
		if pattern == "" {
			return true
		}
		for k := 0; k <= len(s); k++ {
			if glob(pattern, s[k:]) {
				return true
			}
		}
		return false
	}
}
