package dwkdirect

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"

	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/caddy/dwkaffinity"
	"github.com/dwk/fleet/caddy/internal/fleetview"
	"github.com/dwk/fleet/caddy/internal/leasecache"
)

const benchSecret = "0123456789abcdef0123456789abcdef"

// staticViews is a view source that always shows the same fleet.
type staticViews struct{ v *fleetview.View }

func (s staticViews) View() *fleetview.View { return s.v }

var _ viewSource = staticViews{}

// noHolders is a lease lookup that finds no holder: placement decides, as
// for objects no replica has opened yet.
type noHolders struct{}

func (noHolders) Holders(_ context.Context, keys []leasecache.Key) ([]string, error) {
	return make([]string, len(keys)), nil
}

// cachedLeases adapts a lease cache to fleetview.Leases, as the dwk
// upstream source does.
type cachedLeases struct{ c *leasecache.Cache }

func (l cachedLeases) Holder(ctx context.Context, ns string, id objectid.ID) (string, bool) {
	return l.c.Holder(ctx, leasecache.Key{Namespace: ns, ID: id})
}

// discardWriter keeps nothing but the status, so that a benchmark measures
// the handler path alone.
type discardWriter struct {
	h    http.Header
	code int
}

func (w *discardWriter) Header() http.Header { return w.h }

func (w *discardWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

func (w *discardWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return len(p), nil
}

// WriteString is there because net/http's writer has it.
func (w *discardWriter) WriteString(s string) (int, error) {
	w.WriteHeader(http.StatusOK)
	return len(s), nil
}

// benchApp answers like an app server: it names its member and writes a
// short body.
var benchApp = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Dwk-Member", "m1")
	io.Copy(io.Discard, r.Body)
	io.WriteString(w, "ok\n")
})

// benchDirect is a provisioned-looking handler for member m1 of three,
// serving benchApp in process, and paths of objects placed on m1.
func benchDirect(b *testing.B) (*App, []string) {
	b.Helper()
	p := &dwkaffinity.Policy{Secret: benchSecret, Rules: []dwkaffinity.Rule{{Namespace: "Counter", Path: "/counter/{name}/..."}}}
	if err := p.Provision(caddy.Context{}); err != nil {
		b.Fatal(err)
	}
	cache, err := leasecache.New(noHolders{}, leasecache.Options{TTL: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	members := fleetview.NewSnapshot([]fleetview.Member{{ID: "m1", Dial: "10.0.0.1:8788"}, {ID: "m2", Dial: "10.0.0.2:8788"}, {ID: "m3", Dial: "10.0.0.3:8788"}})
	app := &App{name: "m1", h: benchApp}
	d := &Direct{
		Member: "m1", ResponseTimeout: caddy.Duration(DefaultResponseTimeout), ReplayBody: DefaultReplayBody,
		source: staticViews{&fleetview.View{Members: members, Leases: cachedLeases{cache}}},
		policy: p, app: app,
	}
	app.direct.Store(d)
	var paths []string
	for i := 0; len(paths) < 16; i++ {
		name := fmt.Sprintf("bench-%d", i)
		if objectid.Pick(objectid.FromName([]byte(benchSecret), "Counter", name), members.IDs()) == "m1" {
			paths = append(paths, "/counter/"+name+"/value")
		}
	}
	return app, paths
}

// benchServe serves GETs of paths with h, each with a fresh cancellable
// context under one connection's, as the front door's own server (with
// ConnContext) gives every request, and checks the answers.
func benchServe(b *testing.B, h http.Handler, paths []string) {
	conn, closeConn := context.WithCancel(ConnContext(context.Background(), nil))
	defer closeConn()
	reqs := make([]*http.Request, len(paths))
	for i, p := range paths {
		reqs[i] = httptest.NewRequestWithContext(conn, http.MethodGet, "http://front"+p, nil)
		h.ServeHTTP(&discardWriter{h: http.Header{}}, reqs[i]) // warm the caches
	}
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		ctx, cancel := context.WithCancel(conn)
		clear(w.h)
		w.code = 0
		h.ServeHTTP(w, reqs[i%len(reqs)].WithContext(ctx))
		cancel()
		if w.code != http.StatusOK || w.h.Get("X-Dwk-Member") != "m1" {
			b.Fatalf("answer %d %v", w.code, w.h)
		}
	}
}

// BenchmarkServeLocal is the in-process path of a request for an object on
// this member, from App.Handler (before Caddy) to the app's handler; see
// BenchmarkAppAlone for the app's own share.
func BenchmarkServeLocal(b *testing.B) {
	app, paths := benchDirect(b)
	caddyHandler := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { b.Error("handed to Caddy") })
	benchServe(b, app.Handler(caddyHandler), paths)
}

// BenchmarkAppAlone is the app's handler called directly, with the same
// requests as BenchmarkServeLocal.
func BenchmarkAppAlone(b *testing.B) {
	_, paths := benchDirect(b)
	benchServe(b, benchApp, paths)
}
