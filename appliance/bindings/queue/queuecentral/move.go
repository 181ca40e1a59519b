package queuecentral

import (
	"context"
	"crypto/sha256"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/libsql/hrana"
)

var _ queue.Mover = (*Broker)(nil)

// Backlog implements queue.Mover; delays are judged by the server's clock.
func (b *Broker) Backlog(ctx context.Context, q string) ([]queue.Stored, error) {
	ctx, cancel, err := b.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer cancel()
	res, err := b.execute(ctx, fmt.Sprintf("backlog of queue %q", q), hrana.NewStmt(
		`SELECT id, body, content_type, visible_at - `+nowMS+` FROM queue_messages WHERE queue = ? ORDER BY seq`, hrana.Text(q)))
	if err != nil {
		return nil, err
	}
	out := make([]queue.Stored, 0, len(res.Rows))
	for _, row := range res.Rows {
		if len(row) != 4 || row[0].Kind != hrana.KindText || row[2].Kind != hrana.KindText || row[3].Kind != hrana.KindInteger {
			return nil, fmt.Errorf("backlog of queue %q: unexpected row %v", q, row)
		}
		out = append(out, queue.Stored{
			ID: row[0].Text, Body: blob(row[1]), ContentType: row[2].Text,
			Delay: time.Duration(max(row[3].Int, 0)) * time.Millisecond,
		})
	}
	return out, nil
}

// blob is a BLOB column's bytes (an empty body may come back as text).
func blob(v hrana.Value) []byte {
	if v.Kind == hrana.KindBlob {
		return v.Blob
	}
	return []byte(v.Text)
}

// Import implements queue.Mover: one transaction, in one round trip.
func (b *Broker) Import(ctx context.Context, q string, msgs []queue.Stored) error {
	if err := queue.ValidateName(q); err != nil {
		return err
	}
	ctx, cancel, err := b.begin(ctx)
	if err != nil {
		return err
	}
	defer cancel()
	stmts := []hrana.Stmt{hrana.NewStmt(queue.ImportsSchema)}
	for _, m := range msgs {
		sum := sha256.Sum256(m.Body)
		body := m.Body
		if body == nil {
			body = []byte{}
		}
		// The message goes in only when its id was never imported: the
		// second statement sees the first's row only if it inserted it.
		stmts = append(stmts,
			hrana.NewStmt(`INSERT INTO queue_messages (queue, id, body, content_type, sent_at, visible_at)
				SELECT ?1, ?2, ?3, ?4, `+nowMS+`, `+nowMS+` + ?5 WHERE NOT EXISTS (SELECT 1 FROM queue_imports WHERE id = ?2)
				ON CONFLICT (id) DO NOTHING`,
				hrana.Text(q), hrana.Text(m.ID), hrana.Blob(body), hrana.Text(m.ContentType), hrana.Integer(millis(m.Delay))),
			hrana.NewStmt(`INSERT INTO queue_imports (id, queue, body_sha256, content_type) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
				hrana.Text(m.ID), hrana.Text(q), hrana.Blob(sum[:]), hrana.Text(m.ContentType)))
	}
	_, err = b.transact(ctx, fmt.Sprintf("import %d messages into queue %q", len(msgs), q), stmts)
	return err
}

// Imported implements queue.Mover.
func (b *Broker) Imported(ctx context.Context, q string) ([]queue.Imported, error) {
	ctx, cancel, err := b.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer cancel()
	res, err := b.transact(ctx, fmt.Sprintf("imports of queue %q", q), []hrana.Stmt{
		hrana.NewStmt(queue.ImportsSchema),
		hrana.NewStmt(`SELECT id, body_sha256, content_type FROM queue_imports WHERE queue = ?`, hrana.Text(q)),
	})
	if err != nil {
		return nil, err
	}
	rows := res[len(res)-1].Rows
	out := make([]queue.Imported, 0, len(rows))
	for _, row := range rows {
		if len(row) != 3 || row[0].Kind != hrana.KindText || row[2].Kind != hrana.KindText {
			return nil, fmt.Errorf("imports of queue %q: unexpected row %v", q, row)
		}
		out = append(out, queue.Imported{ID: row[0].Text, BodySHA256: blob(row[1]), ContentType: row[2].Text})
	}
	return out, nil
}
