// Package counter is the counter reference worker: one object per counter
// name, holding its value in the object's SQL storage, with an alarm that
// records when it fired.
//
// Routes (under /counter/):
//
//	GET    /counter/{name}             → {"name", "value"}
//	POST   /counter/{name}/increment   → {"name", "value"} after adding 1 (or ?by=N)
//	POST   /counter/{name}/give?to=B   → {"name": B, "value"}: counter name calls counter B's
//	                                     Add method (object RPC), adding 1 (or ?by=N)
//	POST   /counter/{name}/stream?to=B&bytes=N[&fail=1] → N bytes of Pattern sent through counter B's
//	                                     Echo (EchoThenFail with fail=1) by streaming RPC, and back;
//	                                     trailers X-Stream-Bytes and X-Stream-Error
//	POST   /counter/{name}/later?after=2s → 202 at once; adds 1 that much later, after the
//	                                     response (worker.WaitUntil), which a drain waits for
//	POST   /counter/{name}/alarm?in=2s → sets the alarm
//	GET    /counter/{name}/alarm       → {"alarm_at", "fired", "last_fired_at"}
//	DELETE /counter/{name}             → deletes the counter's data and alarm
//	GET    /counter/_cron/ticks        → cron ticks recorded by Scheduled, with runs each
//	POST   /counter/{name}/noise       → {"ids"} of two rows added to the noise table: random(),
//	                                     datetime('now'), randomblob(16), AUTOINCREMENT ids, the
//	                                     second referring to the first by last_insert_rowid()
//	GET    /counter/{name}/rows        → {"rows": [{"id", "rnd", "at", "blob" (hex), "ref"}]} of
//	                                     the noise table, ordered by id
package counter

import (
	"net/http"
	"strings"

	"github.com/dwk/fleet/appliance/worker"
)

// Binding is the object namespace binding the worker expects.
const Binding = "COUNTER"

// Class is the object class name.
const Class = "Counter"

func init() {
	worker.RegisterWorker("counter", Worker{})
	worker.RegisterObject(Class, newObject)
}

// Worker routes /counter/{name}/... to the named counter object.
type Worker struct{}

// Fetch implements worker.Fetcher.
func (Worker) Fetch(w http.ResponseWriter, r *http.Request, env *worker.Env) {
	rest := strings.TrimPrefix(r.URL.Path, "/counter/")
	name, _, _ := strings.Cut(rest, "/")
	if name == "" || rest == r.URL.Path {
		http.Error(w, "usage: /counter/{name}[/increment|/alarm]", http.StatusNotFound)
		return
	}
	if rest == name+"/later" && r.Method == http.MethodPost {
		later(w, r, env, name)
		return
	}
	ns := env.Object(Binding)
	ns.Get(ns.IDFromName(name)).ServeHTTP(w, r)
}
