package queuelocal

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
)

// Claim leases up to max visible messages of q, in the order they became
// visible, for visibility.
func (b *Broker) Claim(ctx context.Context, q string, max int, visibility time.Duration) ([]queue.Delivery, error) {
	if err := queue.ValidateName(q); err != nil {
		return nil, err
	}
	if err := queue.ValidateClaim(max, visibility); err != nil {
		return nil, fmt.Errorf("claim from queue %q: %w", q, err)
	}
	var out []queue.Delivery
	err := b.inTx(ctx, func(tx *sql.Tx) error {
		out = out[:0]
		now := b.now()
		rows, err := tx.QueryContext(ctx, `
			SELECT seq, id, body, content_type, sent_at, attempts FROM messages
			WHERE queue = ? AND visible_at <= ? ORDER BY visible_at, seq LIMIT ?`,
			q, now.UnixMilli(), max)
		if err != nil {
			return err
		}
		var seqs []int64
		for rows.Next() {
			var (
				d      queue.Delivery
				seq    int64
				sentAt int64
			)
			if err := rows.Scan(&seq, &d.ID, &d.Body, &d.ContentType, &sentAt, &d.Attempts); err != nil {
				rows.Close()
				return err
			}
			d.Timestamp = time.UnixMilli(sentAt).UTC()
			if d.Body == nil {
				d.Body = []byte{}
			}
			seqs = append(seqs, seq)
			out = append(out, d)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if err := rows.Err(); err != nil {
			return err
		}
		until := now.Add(visibility).UnixMilli()
		for i := range out {
			receipt, err := b.token()
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `
				UPDATE messages SET visible_at = ?, attempts = attempts + 1, receipt = ? WHERE seq = ?`,
				until, receipt, seqs[i]); err != nil {
				return err
			}
			out[i].Attempts++
			out[i].Receipt = receipt
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("claim from queue %q: %w", q, err)
	}
	return out, nil
}
