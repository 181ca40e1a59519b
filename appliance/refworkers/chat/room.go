package chat

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// room is a ChatRoom object: it accepts the room's WebSockets, stores each
// message and broadcasts it to every socket. It keeps nothing in memory
// (each socket carries its room name as a serialized attachment and its
// user as a tag), so an idle room hibernates: it costs no object memory
// until a message wakes it.
type room struct {
	state *worker.State
	env   *worker.Env
}

func newRoom(state *worker.State, env *worker.Env) worker.Object {
	return &room{state: state, env: env}
}

// Fetch implements worker.Object.
func (rm *room) Fetch(w http.ResponseWriter, r *http.Request) {
	name := roomName(r.URL.Path)
	switch {
	case strings.HasSuffix(r.URL.Path, "/ws"):
		user := r.URL.Query().Get("user")
		if user == "" || len(user) > maxUser {
			http.Error(w, "?user= is required (at most 64 bytes)", http.StatusBadRequest)
			return
		}
		ws, err := rm.state.AcceptWebSocket(w, r, "user:"+user)
		if err != nil {
			// The upgrader has already answered the client.
			slog.Debug("chat: websocket upgrade failed", "err", err)
			return
		}
		ws.SerializeAttachment(name)
		rm.broadcast(Message{Type: "join", Room: name, User: user, CreatedAt: time.Now().UnixMilli(), Members: rm.members(nil)})
	case r.Method == http.MethodPost:
		var in struct {
			User       string      `json:"user"`
			Text       string      `json:"text"`
			Attachment *Attachment `json:"attachment"`
		}
		if err := json.NewDecoder(io.LimitReader(r.Body, 64<<10)).Decode(&in); err != nil {
			http.Error(w, `body must be JSON {"user": ..., "text": ...}`, http.StatusBadRequest)
			return
		}
		m, err := store(r.Context(), rm.env, Message{Room: name, User: in.User, Text: in.Text, Attachment: in.Attachment})
		if err != nil {
			if errors.Is(err, errBadMessage) {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			worker.WriteError(w, err)
			return
		}
		rm.broadcast(m)
		w.Header().Set(HeaderBookmark, m.bookmark)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(m)
	default:
		http.NotFound(w, r)
	}
}

// WebSocketMessage implements worker.WebSocketMessageHandler: a text frame is
// a message ({"text": ...} or plain text) from the socket's user.
func (rm *room) WebSocketMessage(ctx context.Context, ws *worker.WebSocket, _ int, data []byte) {
	var in struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(data, &in) != nil {
		in.Text = string(data)
	}
	name := roomOf(ws)
	m, err := store(ctx, rm.env, Message{Room: name, User: userOf(ws), Text: in.Text})
	if err != nil {
		b, _ := json.Marshal(map[string]string{"type": "error", "error": err.Error()})
		ws.Send(worker.TextMessage, b)
		return
	}
	rm.broadcast(m)
}

// WebSocketClose implements worker.WebSocketCloseHandler.
func (rm *room) WebSocketClose(_ context.Context, ws *worker.WebSocket, code int, _ string) {
	if code == worker.CloseServiceRestart {
		// The host is closing every socket (a drain): they all reconnect,
		// and nobody left.
		return
	}
	name := roomOf(ws)
	rm.broadcast(Message{Type: "leave", Room: name, User: userOf(ws), CreatedAt: time.Now().UnixMilli(), Members: rm.members(ws)})
}

// members lists the users of the room's open sockets, but for leaving,
// sorted, each once.
func (rm *room) members(leaving *worker.WebSocket) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, ws := range rm.state.GetWebSockets("") {
		if u := userOf(ws); ws != leaving && u != "" && !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	sort.Strings(out)
	return out
}

func (rm *room) broadcast(m Message) {
	b, _ := json.Marshal(m)
	for _, ws := range rm.state.GetWebSockets("") {
		ws.Send(worker.TextMessage, b)
	}
}

// Hibernatable implements worker.Hibernatable: a room holds nothing in
// memory.
func (rm *room) Hibernatable() bool { return true }

// Methods implements worker.RPCObject: Announce broadcasts a message the
// worker already stored (an attachment's).
func (rm *room) Methods() worker.Methods {
	return worker.Methods{"Announce": worker.Typed(func(_ context.Context, m Message) (struct{}, error) {
		rm.broadcast(m)
		return struct{}{}, nil
	})}
}

// roomOf is the room name a socket was accepted for.
func roomOf(ws *worker.WebSocket) string {
	var name string
	ws.DeserializeAttachment(&name)
	return name
}

func userOf(ws *worker.WebSocket) string {
	for _, t := range ws.Tags() {
		if u, ok := strings.CutPrefix(t, "user:"); ok {
			return u
		}
	}
	return ""
}

func roomName(path string) string {
	rest := strings.TrimPrefix(path, "/chat/rooms/")
	name, _, _ := strings.Cut(rest, "/")
	return name
}
