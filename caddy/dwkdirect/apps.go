package dwkdirect

import (
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/dwk/fleet/appliance/fleet/protocol"
)

// apps are the in-process apps by name.
var apps sync.Map // string → *App

// App is an app server's handler, registered for the dwk_direct handlers
// that name it. Its Handler also serves this member's requests before
// Caddy sees them, for a front door that owns its listener.
type App struct {
	name    string
	h       http.Handler
	direct  atomic.Pointer[Direct] // the provisioned handler naming this app
	closing atomic.Bool
}

// Closing makes every answer from now on, through Handler or the
// dwk_direct handlers naming a, close its connection after it
// (protocol.CloseAfter): the replica is draining.
func (a *App) Closing() { a.closing.Store(true) }

// closeAfter marks r's answer to close its connection once a is closing.
func (a *App) closeAfter(w http.ResponseWriter, r *http.Request) {
	if a != nil && a.closing.Load() {
		protocol.CloseAfter(w, r)
	}
}

// Tunnels is how many WebSockets the dwk_direct handler naming a splices
// to other members now.
func (a *App) Tunnels() int {
	if d := a.direct.Load(); d != nil && d.tunnels != nil {
		return d.tunnels.count()
	}
	return 0
}

// Register makes h the app that dwk_direct handlers configured with
// "app": name hand requests to. Register before the Caddy config that
// names it is loaded; Unregister after it is stopped.
func Register(name string, h http.Handler) *App {
	a := &App{name: name, h: h}
	apps.Store(name, a)
	return a
}

// Unregister removes a, unless another app took its name since.
func (a *App) Unregister() { apps.CompareAndDelete(a.name, a) }

// lookup returns the app registered as name.
func lookup(name string) (*App, bool) {
	a, ok := apps.Load(name)
	if !ok {
		return nil, false
	}
	return a.(*App), true
}

// Handler returns a handler that serves the requests the dwk_direct
// handler naming a would serve in process, directly, and hands every other
// request to caddy (the Caddy server's handler), which routes it as usual.
// A request whose path contains "/_dwk" always goes to caddy, which
// answers the reserved paths (health, internal endpoints) itself. Its
// server should set ConnContext.
func (a *App) Handler(caddy http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.closeAfter(w, r)
		if d := a.direct.Load(); d == nil || reserved(r.URL.Path) || !d.serveFirst(w, r, caddy) {
			caddy.ServeHTTP(w, r)
		}
	})
}
