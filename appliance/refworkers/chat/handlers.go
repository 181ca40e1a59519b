package chat

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"strconv"

	"github.com/dwk/fleet/appliance/worker"
)

// HeaderBookmark carries a D1 bookmark: the answer to a posted message
// has the one after it, and a history request that sends it back reads
// at least that far (Cloudflare's read-your-writes pattern).
const HeaderBookmark = "X-D1-Bookmark"

// maxAttachment bounds an upload.
const maxAttachment = 25 << 20

func history(w http.ResponseWriter, r *http.Request, env *worker.Env, room string) {
	after, _ := strconv.ParseInt(r.URL.Query().Get("after"), 10, 64)
	limit, err := strconv.Atoi(r.URL.Query().Get("limit"))
	if err != nil || limit <= 0 || limit > 500 {
		limit = 100
	}
	// A client that sends the bookmark of its last post reads its own
	// message, whichever replica serves the read (a D1 session).
	sess := env.D1(BindingDB).WithSession(r.Header.Get(HeaderBookmark))
	res, err := sess.Prepare(
		`SELECT id, user, text, attachment, created_at FROM messages WHERE room = ? AND id > ? ORDER BY id LIMIT ?`).
		Bind(room, after, limit).All(r.Context())
	switch {
	case errors.Is(err, worker.ErrD1Bookmark), errors.Is(err, worker.ErrD1BookmarkOtherDatabase), errors.Is(err, worker.ErrD1BookmarkAhead):
		http.Error(w, HeaderBookmark+": "+err.Error(), http.StatusBadRequest)
		return
	case err != nil:
		worker.WriteError(w, err)
		return
	}
	w.Header().Set(HeaderBookmark, sess.Bookmark())
	out := make([]Message, 0, len(res.Rows))
	for _, row := range res.Maps() {
		m := Message{Type: "message", Room: room}
		m.ID, _ = row["id"].(int64)
		m.User, _ = row["user"].(string)
		m.Text, _ = row["text"].(string)
		m.CreatedAt, _ = row["created_at"].(int64)
		if a, ok := row["attachment"].(string); ok {
			m.Attachment = &Attachment{}
			json.Unmarshal([]byte(a), m.Attachment)
		}
		out = append(out, m)
	}
	writeJSON(w, out)
}

func upload(w http.ResponseWriter, r *http.Request, env *worker.Env, room string) {
	user := r.URL.Query().Get("user")
	name := path.Base(r.URL.Query().Get("name"))
	if user == "" || name == "" || name == "." || name == "/" {
		http.Error(w, "?user= and ?name= are required", http.StatusBadRequest)
		return
	}
	id := make([]byte, 8)
	rand.Read(id)
	key := fmt.Sprintf("rooms/%s/%s/%s", room, hex.EncodeToString(id), name)
	obj, err := env.R2(BindingFiles).Put(r.Context(), key, http.MaxBytesReader(w, r.Body, maxAttachment), &worker.R2PutOptions{
		HTTPMetadata:   worker.R2HTTPMetadata{ContentType: r.Header.Get("Content-Type")},
		CustomMetadata: map[string]string{"user": user, "room": room},
	})
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "attachments are at most 25 MiB", http.StatusRequestEntityTooLarge)
			return
		}
		worker.WriteError(w, err)
		return
	}
	att := &Attachment{Key: key, Name: name, Size: obj.Size, URL: "/chat/files/" + (&url.URL{Path: key}).EscapedPath()}
	m, err := store(r.Context(), env, Message{Room: room, User: user, Text: "shared " + name, Attachment: att})
	if err != nil {
		worker.WriteError(w, err)
		return
	}
	// Announce it in the room through the object, which broadcasts. The
	// message is stored already: a failed announcement only delays it to
	// the room's next history read.
	ns := env.Object(BindingRooms)
	if _, err := worker.Call[Message, struct{}](r.Context(), ns.Get(ns.IDFromName(room)), "Announce", m); err != nil {
		slog.Warn("chat: announce attachment", "room", room, "err", err)
	}
	writeJSON(w, m)
}

func download(w http.ResponseWriter, r *http.Request, env *worker.Env, key string) {
	opts := &worker.R2GetOptions{}
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		opts.OnlyIf = &worker.R2Conditional{EtagDoesNotMatch: trimQuotes(inm)}
	}
	obj, err := env.R2(BindingFiles).Get(r.Context(), key, opts)
	switch {
	case errors.Is(err, worker.ErrNotFound):
		http.NotFound(w, r)
		return
	case errors.Is(err, worker.ErrPreconditionFailed):
		w.Header().Set("ETag", obj.HTTPETag)
		w.WriteHeader(http.StatusNotModified)
		return
	case err != nil:
		worker.WriteError(w, err)
		return
	}
	defer obj.Body.Close()
	if ct := obj.HTTPMetadata.ContentType; ct != "" {
		w.Header().Set("Content-Type", ct)
	}
	w.Header().Set("ETag", obj.HTTPETag)
	w.Header().Set("Content-Length", strconv.FormatInt(obj.Size, 10))
	io.Copy(w, obj.Body)
}

func stats(w http.ResponseWriter, r *http.Request, env *worker.Env) {
	db := env.D1(BindingDB)
	res, err := db.Batch(r.Context(),
		db.Prepare("SELECT count(*) FROM messages"),
		db.Prepare("SELECT count(*), coalesce(sum(deliveries), 0) FROM notifications"),
		db.Prepare(`SELECT m.id FROM messages m LEFT JOIN notifications n ON n.message_id = m.id
		            WHERE n.message_id IS NULL ORDER BY m.id LIMIT 1000`))
	if err != nil {
		worker.WriteError(w, err)
		return
	}
	undelivered := make([]any, 0, len(res[2].Rows))
	for _, row := range res[2].Rows {
		undelivered = append(undelivered, row[0])
	}
	writeJSON(w, map[string]any{
		"messages": res[0].Rows[0][0], "notifications": res[1].Rows[0][0], "deliveries": res[1].Rows[0][1],
		"undelivered": undelivered,
	})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func trimQuotes(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}
