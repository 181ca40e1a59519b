package queuelocal

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/worker"
)

// Send stores msgs on q in one transaction. A message without a content
// type is stored as queue.DefaultContentType.
func (b *Broker) Send(ctx context.Context, q string, msgs []worker.QueueMessage) error {
	if err := queue.ValidateName(q); err != nil {
		return err
	}
	if err := queue.ValidateBatch(msgs); err != nil {
		return fmt.Errorf("send to queue %q: %w", q, err)
	}
	now := b.now()
	err := b.inTx(ctx, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, `
			INSERT INTO messages (queue, id, body, content_type, sent_at, visible_at) VALUES (?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, m := range msgs {
			id, err := b.token()
			if err != nil {
				return err
			}
			ct := m.ContentType
			if ct == "" {
				ct = queue.DefaultContentType
			}
			body := m.Body
			if body == nil {
				body = []byte{}
			}
			if _, err := stmt.ExecContext(ctx, q, id, body, ct, now.UnixMilli(), now.Add(m.Delay).UnixMilli()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("send %d messages to queue %q: %w", len(msgs), q, err)
	}
	return nil
}
