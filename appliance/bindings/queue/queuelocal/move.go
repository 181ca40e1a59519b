package queuelocal

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
)

var _ queue.Mover = (*Broker)(nil)

// Backlog implements queue.Mover.
func (b *Broker) Backlog(ctx context.Context, q string) ([]queue.Stored, error) {
	now := b.now().UnixMilli()
	rows, err := b.db.QueryContext(ctx, `SELECT id, body, content_type, visible_at FROM messages WHERE queue = ? ORDER BY seq`, q)
	if err != nil {
		return nil, fmt.Errorf("backlog of queue %q: %w", q, err)
	}
	defer rows.Close()
	var out []queue.Stored
	for rows.Next() {
		var m queue.Stored
		var visible int64
		if err := rows.Scan(&m.ID, &m.Body, &m.ContentType, &visible); err != nil {
			return nil, fmt.Errorf("backlog of queue %q: %w", q, err)
		}
		m.Delay = time.Duration(max(visible-now, 0)) * time.Millisecond
		out = append(out, m)
	}
	return out, rows.Err()
}

// Import implements queue.Mover.
func (b *Broker) Import(ctx context.Context, q string, msgs []queue.Stored) error {
	if err := queue.ValidateName(q); err != nil {
		return err
	}
	now := b.now()
	err := b.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, queue.ImportsSchema); err != nil {
			return err
		}
		for _, m := range msgs {
			sum := sha256.Sum256(m.Body)
			res, err := tx.ExecContext(ctx, `INSERT INTO queue_imports (id, queue, body_sha256, content_type) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`, m.ID, q, sum[:], m.ContentType)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				continue // imported before
			}
			body := m.Body
			if body == nil {
				body = []byte{}
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO messages (queue, id, body, content_type, sent_at, visible_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
				q, m.ID, body, m.ContentType, now.UnixMilli(), now.Add(m.Delay).UnixMilli()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("import %d messages into queue %q: %w", len(msgs), q, err)
	}
	return nil
}

// Imported implements queue.Mover.
func (b *Broker) Imported(ctx context.Context, q string) ([]queue.Imported, error) {
	if _, err := b.db.ExecContext(ctx, queue.ImportsSchema); err != nil {
		return nil, err
	}
	rows, err := b.db.QueryContext(ctx, `SELECT id, body_sha256, content_type FROM queue_imports WHERE queue = ?`, q)
	if err != nil {
		return nil, fmt.Errorf("imports of queue %q: %w", q, err)
	}
	defer rows.Close()
	var out []queue.Imported
	for rows.Next() {
		var m queue.Imported
		if err := rows.Scan(&m.ID, &m.BodySHA256, &m.ContentType); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
