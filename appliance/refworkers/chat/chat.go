// Package chat is the chat reference worker: rooms are objects that
// broadcast over WebSockets; history lives in D1, attachments in R2; every
// message is also sent to a notification queue, whose consumer records it;
// and a cron job deletes history older than the retention.
//
// Routes:
//
//	GET  /                                   the chat page
//	GET  /chat/rooms/{room}/ws?user=NAME     WebSocket into the room
//	GET  /chat/rooms/{room}/messages         history (?after=ID&limit=N); a request with the
//	                                         X-D1-Bookmark of a post reads at least that far
//	POST /chat/rooms/{room}/messages         post {"user","text"} without a WebSocket; the
//	                                         answer's X-D1-Bookmark is the D1 bookmark after it
//	POST /chat/rooms/{room}/attachments?user=NAME&name=FILE   upload, then announce
//	GET  /chat/files/{key}                   download an attachment
//	GET  /chat/stats                         message and notification counts
//
// Bindings: D1 "DB", R2 "FILES", queue "NOTIFY", objects "ROOMS" (ChatRoom);
// optional var "RETENTION" (a Go duration, default 168h).
package chat

import (
	"embed"
	"fmt"
	"net/http"
	"strings"

	"github.com/dwk/fleet/appliance/worker"
)

// Binding names and the object class.
const (
	BindingDB     = "DB"
	BindingFiles  = "FILES"
	BindingNotify = "NOTIFY"
	BindingRooms  = "ROOMS"
	Class         = "ChatRoom"
)

//go:embed page.html
var page embed.FS

func init() {
	worker.RegisterWorker("chat", &Worker{})
	worker.RegisterObject(Class, newRoom)
}

// Worker is the chat worker.
type Worker struct {
	schemas schemaOnce
}

// Fetch implements worker.Fetcher.
func (wk *Worker) Fetch(w http.ResponseWriter, r *http.Request, env *worker.Env) {
	if err := wk.schemas.ensure(r.Context(), env); err != nil {
		worker.WriteError(w, fmt.Errorf("chat: %w", err))
		return
	}
	p := r.URL.Path
	switch {
	case p == "/" || p == "/chat" || p == "/chat/":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		b, _ := page.ReadFile("page.html")
		w.Write(b)
	case p == "/chat/stats":
		stats(w, r, env)
	case strings.HasPrefix(p, "/chat/files/"):
		download(w, r, env, strings.TrimPrefix(p, "/chat/files/"))
	case strings.HasPrefix(p, "/chat/rooms/"):
		wk.room(w, r, env, strings.TrimPrefix(p, "/chat/rooms/"))
	default:
		http.NotFound(w, r)
	}
}

func (wk *Worker) room(w http.ResponseWriter, r *http.Request, env *worker.Env, rest string) {
	room, action, _ := strings.Cut(rest, "/")
	if !validRoom(room) {
		http.Error(w, "room names are 1-64 of a-z, A-Z, 0-9, '-', '_'", http.StatusBadRequest)
		return
	}
	switch {
	case action == "messages" && r.Method == http.MethodGet:
		history(w, r, env, room)
	case action == "attachments" && r.Method == http.MethodPost:
		upload(w, r, env, room)
	case action == "ws" || (action == "messages" && r.Method == http.MethodPost):
		ns := env.Object(BindingRooms)
		ns.Get(ns.IDFromName(room)).ServeHTTP(w, r)
	default:
		http.NotFound(w, r)
	}
}

func validRoom(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
