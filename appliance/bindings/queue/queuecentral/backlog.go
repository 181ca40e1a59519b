package queuecentral

import (
	"context"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// Backlogs reports every queue that stores messages: one statement, one
// round trip, which reads only the (queue, sent_at) index. Ages are
// judged by the server's clock, like every other time of the broker.
func (b *Broker) Backlogs(ctx context.Context) ([]queue.Backlog, error) {
	ctx, cancel, err := b.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer cancel()
	res, err := b.execute(ctx, "queue backlogs", hrana.NewStmt(
		`SELECT queue, count(*), `+nowMS+` - min(sent_at) FROM queue_messages GROUP BY queue`))
	if err != nil {
		return nil, err
	}
	out := make([]queue.Backlog, 0, len(res.Rows))
	for _, row := range res.Rows {
		if len(row) != 3 || row[0].Kind != hrana.KindText || row[1].Kind != hrana.KindInteger || row[2].Kind != hrana.KindInteger {
			return nil, fmt.Errorf("queue backlogs: unexpected row %v", row)
		}
		out = append(out, queue.Backlog{
			Queue: row[0].Text, Depth: int(row[1].Int),
			OldestAge: time.Duration(max(row[2].Int, 0)) * time.Millisecond,
		})
	}
	return out, nil
}
