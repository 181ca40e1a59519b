// Package hello is an example of an application for dwk: a worker that
// greets visitors by name, and a Guestbook object per name that records
// each visit in its own SQL storage. In central mode every Guestbook lives
// on one replica at a time (its lease holder), its database in libSQL, so
// the count is the same whichever replica's front door a visitor uses.
//
// Routes:
//
//	GET    /hello/{name}  → {"greeting": "Hello, {name}!", "visits": n} after recording a visit
//	DELETE /hello/{name}  → forgets the name's visits
//
// Bindings (dwk.json, or dwk_fleet's workers):
//
//	objects: GUESTBOOK = "Guestbook"
//	vars:    GREETING  = "Hello" (optional)
package hello

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// Names the configuration refers to.
const (
	// Worker is the name the worker is registered under.
	Worker = "hello"
	// Class is the object class of the guestbooks.
	Class = "Guestbook"
	// Binding is the object namespace binding the worker expects.
	Binding = "GUESTBOOK"
	// GreetingVar is the optional variable holding the greeting.
	GreetingVar = "GREETING"
)

func init() {
	worker.RegisterWorker(Worker, greeter{})
	worker.RegisterObject(Class, newGuestbook)
}

// greeter is the worker: it sends each request to the name's guestbook.
type greeter struct{}

// Fetch implements worker.Fetcher.
func (greeter) Fetch(w http.ResponseWriter, r *http.Request, env *worker.Env) {
	name, ok := nameOf(r)
	if !ok {
		http.Error(w, "usage: GET /hello/{name}", http.StatusNotFound)
		return
	}
	ns := env.Object(Binding)
	ns.Get(ns.IDFromName(name)).ServeHTTP(w, r)
}

// nameOf is the {name} of /hello/{name}.
func nameOf(r *http.Request) (string, bool) {
	name, found := strings.CutPrefix(r.URL.Path, "/hello/")
	name = strings.TrimSuffix(name, "/")
	return name, found && name != "" && !strings.Contains(name, "/")
}

const schema = `CREATE TABLE IF NOT EXISTS visits (
  n  INTEGER PRIMARY KEY AUTOINCREMENT,
  at TEXT NOT NULL
)`

// guestbook is one name's object. The runtime delivers its requests one at
// a time, so migrated needs no lock.
type guestbook struct {
	state    *worker.State
	env      *worker.Env
	migrated bool
}

func newGuestbook(state *worker.State, env *worker.Env) worker.Object {
	return &guestbook{state: state, env: env}
}

// Fetch implements worker.Object.
func (g *guestbook) Fetch(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	name, _ := nameOf(r)
	if !g.migrated {
		if _, err := g.state.Storage.Exec(ctx, schema); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		g.migrated = true
	}
	switch r.Method {
	case http.MethodGet:
		if _, err := g.state.Storage.Exec(ctx, `INSERT INTO visits (at) VALUES (?)`, time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		cur, err := g.state.Storage.Exec(ctx, `SELECT count(*) AS visits FROM visits`)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		row, err := cur.One()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		greeting, ok := g.env.Var(GreetingVar)
		if !ok {
			greeting = "Hello"
		}
		reply(w, map[string]any{"greeting": greeting + ", " + name + "!", "visits": row["visits"]})
	case http.MethodDelete:
		if err := g.state.Storage.DeleteAll(ctx); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		g.migrated = false
		reply(w, map[string]any{"name": name, "deleted": true})
	default:
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

func reply(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
