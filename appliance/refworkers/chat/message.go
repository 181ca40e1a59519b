package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// Message is one chat message as clients see it.
type Message struct {
	Type       string      `json:"type"` // "message", "join" or "leave"
	ID         int64       `json:"id,omitempty"`
	Room       string      `json:"room"`
	User       string      `json:"user"`
	Text       string      `json:"text,omitempty"`
	Attachment *Attachment `json:"attachment,omitempty"`
	CreatedAt  int64       `json:"created_at"` // Unix milliseconds
	// Members, on "join" and "leave", are the users in the room after
	// the change, sorted, each once.
	Members []string `json:"members,omitzero"`
	// bookmark is the D1 bookmark after the message was stored (see
	// HeaderBookmark).
	bookmark string
}

// Attachment points at a file in R2.
type Attachment struct {
	Key  string `json:"key"`
	Name string `json:"name"`
	Size int64  `json:"size"`
	URL  string `json:"url"`
}

// notification is the queue message body.
type notification struct {
	MessageID int64  `json:"message_id"`
	Room      string `json:"room"`
}

// Limits on user input.
const (
	maxText = 4000
	maxUser = 64
)

// store saves m to D1 and returns it with its id, then queues a notification.
// errBadMessage is a message store refuses: the client's mistake.
var errBadMessage = errors.New("bad message")

func store(ctx context.Context, env *worker.Env, m Message) (Message, error) {
	if len(m.Text) > maxText || len(m.User) > maxUser || m.User == "" {
		return m, fmt.Errorf("%w: a message needs a user of at most %d bytes and a text of at most %d bytes", errBadMessage, maxUser, maxText)
	}
	var att any
	if m.Attachment != nil {
		b, _ := json.Marshal(m.Attachment)
		att = string(b)
	}
	m.Type = "message"
	m.CreatedAt = time.Now().UnixMilli()
	res, err := env.D1(BindingDB).Prepare(
		`INSERT INTO messages (room, user, text, attachment, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`).
		Bind(m.Room, m.User, m.Text, att, m.CreatedAt).All(ctx)
	if err == nil && len(res.Rows) != 1 {
		err = fmt.Errorf("INSERT RETURNING gave %d rows", len(res.Rows))
	}
	if err != nil {
		return m, fmt.Errorf("store message: %w", err)
	}
	m.ID, _ = res.Rows[0][0].(int64)
	m.bookmark = res.Meta.Bookmark
	body, _ := json.Marshal(notification{MessageID: m.ID, Room: m.Room})
	if err := env.Queue(BindingNotify).Send(ctx, body, &worker.QueueSendOptions{ContentType: "json"}); err != nil {
		return m, fmt.Errorf("queue notification: %w", err)
	}
	return m, nil
}
