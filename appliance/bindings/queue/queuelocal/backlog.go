package queuelocal

import (
	"context"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
)

// Backlogs reports every queue that stores messages in one query, which
// reads only the (queue, sent_at) index.
func (b *Broker) Backlogs(ctx context.Context) ([]queue.Backlog, error) {
	rows, err := b.db.QueryContext(ctx,
		`SELECT queue, count(*), ? - min(sent_at) FROM messages GROUP BY queue`, b.now().UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("queue backlogs: %w", err)
	}
	defer rows.Close()
	var out []queue.Backlog
	for rows.Next() {
		var bl queue.Backlog
		var ageMS int64
		if err := rows.Scan(&bl.Queue, &bl.Depth, &ageMS); err != nil {
			return nil, fmt.Errorf("queue backlogs: %w", err)
		}
		bl.OldestAge = time.Duration(max(ageMS, 0)) * time.Millisecond
		out = append(out, bl)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("queue backlogs: %w", err)
	}
	return out, nil
}
