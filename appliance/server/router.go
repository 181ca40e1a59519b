package server

import (
	"net/http"
	"sort"
	"strings"

	"github.com/dwk/fleet/appliance/process/background"
	"github.com/dwk/fleet/appliance/worker"
)

// route sends requests under one path prefix to one worker.
type route struct {
	prefix  string
	name    string
	handler http.Handler
}

// fetchHandler adapts a worker's Fetch to http.Handler, with the tracker
// of background work in the request's context for worker.WaitUntil.
func fetchHandler(f worker.Fetcher, env *worker.Env, bg *background.Tracker, name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := worker.WithBackground(r.Context(), bg.For(name, r.Method+" "+r.URL.Path))
		f.Fetch(w, r.WithContext(ctx), env)
	})
}

// router picks the worker whose route is the longest prefix of the path.
// "/x/" matches "/x" and everything under it; "/" matches everything.
type router struct {
	routes []route // longest prefix first
}

func newRouter(rs []route) *router {
	sort.SliceStable(rs, func(i, j int) bool { return len(rs[i].prefix) > len(rs[j].prefix) })
	return &router{routes: rs}
}

func (rt *router) match(path string) (route, bool) {
	for _, r := range rt.routes {
		p := r.prefix
		if strings.HasPrefix(path, p) || (strings.HasSuffix(p, "/") && path == strings.TrimSuffix(p, "/")) {
			return r, true
		}
	}
	return route{}, false
}

func (rt *router) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rr, ok := rt.match(r.URL.Path)
	if !ok {
		http.Error(w, "no worker serves "+r.URL.Path, http.StatusNotFound)
		return
	}
	rr.handler.ServeHTTP(w, r)
}
