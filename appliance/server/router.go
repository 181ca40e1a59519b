package server

import (
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/process/background"
	"github.com/dwk/fleet/appliance/server/tail"
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
func fetchHandler(f worker.Fetcher, env *liveEnv, bg *background.Tracker, name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := worker.WithBackground(r.Context(), bg.For(name, r.Method+" "+r.URL.Path))
		f.Fetch(w, r.WithContext(ctx), env.get())
	})
}

// router picks the worker whose route is the longest prefix of the path.
// "/x/" matches "/x" and everything under it; "/" matches everything.
type router struct {
	routes []route // longest prefix first
	// tail gets an event for each request to a worker someone tails;
	// member names this replica in it.
	tail   *tail.Hub
	member string
}

func newRouter(rs []route, hub *tail.Hub, member string) *router {
	sort.SliceStable(rs, func(i, j int) bool { return len(rs[i].prefix) > len(rs[j].prefix) })
	return &router{routes: rs, tail: hub, member: member}
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
	if !rt.tail.Active(rr.name) {
		rr.handler.ServeHTTP(w, r)
		return
	}
	ctx, logs := tail.WithCollector(r.Context())
	sw := &statusWriter{ResponseWriter: w}
	start := time.Now()
	rr.handler.ServeHTTP(sw, r.WithContext(ctx))
	rt.tail.Publish(tail.NewEvent(rr.name, rt.member, r, sw.status(), start, logs.Logs()))
}
