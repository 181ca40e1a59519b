package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// DefaultRetention is how long history is kept when the RETENTION var is unset.
const DefaultRetention = 7 * 24 * time.Hour

// Queue implements worker.QueueConsumer: it records each notification once
// and counts redeliveries, so tests can check that every message was
// delivered and report duplicates.
func (wk *Worker) Queue(ctx context.Context, batch *worker.MessageBatch, env *worker.Env) error {
	if err := wk.schemas.ensure(ctx, env); err != nil {
		return err
	}
	db := env.D1(BindingDB)
	now := time.Now().UnixMilli()
	var stmts []worker.D1Statement
	for _, m := range batch.Messages {
		var n notification
		if err := json.Unmarshal(m.Body, &n); err != nil || n.MessageID == 0 {
			// A malformed message will never succeed: ack it, don't retry.
			m.Ack()
			continue
		}
		stmts = append(stmts, db.Prepare(
			`INSERT INTO notifications (message_id, room, delivered_at) VALUES (?, ?, ?)
			 ON CONFLICT (message_id) DO UPDATE SET deliveries = deliveries + 1`).
			Bind(n.MessageID, n.Room, now))
	}
	if len(stmts) == 0 {
		return nil
	}
	if _, err := db.Batch(ctx, stmts...); err != nil {
		return fmt.Errorf("record notifications: %w", err)
	}
	return nil
}

// Scheduled implements worker.Scheduler: it deletes messages older than the
// retention, and their attachments.
func (wk *Worker) Scheduled(ctx context.Context, ev worker.ScheduledEvent, env *worker.Env) error {
	if err := wk.schemas.ensure(ctx, env); err != nil {
		return err
	}
	retention := DefaultRetention
	if v, ok := env.Var("RETENTION"); ok {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("var RETENTION must be a positive duration like 168h, not %q", v)
		}
		retention = d
	}
	cutoff := ev.ScheduledTime.Add(-retention).UnixMilli()
	db := env.D1(BindingDB)
	res, err := db.Prepare(`SELECT attachment FROM messages WHERE created_at < ? AND attachment IS NOT NULL`).Bind(cutoff).All(ctx)
	if err != nil {
		return fmt.Errorf("cleanup: %w", err)
	}
	var keys []string
	for _, row := range res.Rows {
		var a Attachment
		if s, ok := row[0].(string); ok && json.Unmarshal([]byte(s), &a) == nil && a.Key != "" {
			keys = append(keys, a.Key)
		}
	}
	for len(keys) > 0 {
		n := min(len(keys), 1000)
		if err := env.R2(BindingFiles).Delete(ctx, keys[:n]...); err != nil && !errors.Is(err, worker.ErrNotFound) {
			return fmt.Errorf("cleanup attachments: %w", err)
		}
		keys = keys[n:]
	}
	if _, err := db.Prepare(`DELETE FROM messages WHERE created_at < ?`).Bind(cutoff).Run(ctx); err != nil {
		return fmt.Errorf("cleanup: %w", err)
	}
	return nil
}
