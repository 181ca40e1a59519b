package queuecentral

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// claimSQL leases up to ?2 visible messages of queue ?1 for ?3 ms, with
// receipts "?4.<seq>", returning at most ?5 body bytes (and at least one
// message). The innermost SELECT walks the (queue, visible_at, seq) index
// and stops at the limit; the window sums the bodies of those few rows.
// The whole claim is one statement, so SQLite's write lock makes it a
// compare-and-set: a concurrent claim sees the new visible_at.
const claimSQL = `UPDATE queue_messages
SET ready_at = visible_at, visible_at = ` + nowMS + ` + ?3, attempts = attempts + 1, receipt = ?4 || '.' || seq
WHERE seq IN (
	SELECT seq FROM (
		SELECT seq,
			sum(len) OVER (ORDER BY visible_at, seq ROWS UNBOUNDED PRECEDING) AS upto,
			row_number() OVER (ORDER BY visible_at, seq) AS n
		FROM (
			SELECT seq, visible_at, length(body) AS len FROM queue_messages
			WHERE queue = ?1 AND visible_at <= ` + nowMS + `
			ORDER BY visible_at, seq LIMIT ?2
		)
	) WHERE n = 1 OR upto <= ?5
)
RETURNING seq, id, body, content_type, sent_at, attempts, receipt, ready_at`

// Claim leases up to max messages of q that are visible by the server's
// clock, in the order they became visible, hiding each for visibility and
// counting the attempt: one statement, one round trip. Every delivery gets
// a fresh receipt.
func (b *Broker) Claim(ctx context.Context, q string, max int, visibility time.Duration) ([]queue.Delivery, error) {
	if err := queue.ValidateName(q); err != nil {
		return nil, err
	}
	if err := queue.ValidateClaim(max, visibility); err != nil {
		return nil, fmt.Errorf("claim from queue %q: %w", q, err)
	}
	ctx, cancel, err := b.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer cancel()
	token, err := b.token(12)
	if err != nil {
		return nil, fmt.Errorf("claim from queue %q: %w", q, err)
	}
	op := fmt.Sprintf("claim from queue %q", q)
	res, err := b.execute(ctx, op, hrana.NewStmt(claimSQL,
		hrana.Text(q), hrana.Integer(int64(max)), hrana.Integer(millis(visibility)), hrana.Text(token),
		hrana.Integer(int64(b.opts.MaxClaimBytes))))
	if err != nil {
		return nil, err
	}
	out := make([]claimed, 0, len(res.Rows))
	for _, row := range res.Rows {
		c, err := scanClaimed(row)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		out = append(out, c)
	}
	// RETURNING order is unspecified: restore the claim's order.
	slices.SortFunc(out, func(a, b claimed) int {
		if a.readyAt != b.readyAt {
			return compare(a.readyAt, b.readyAt)
		}
		return compare(a.seq, b.seq)
	})
	ds := make([]queue.Delivery, len(out))
	for i, c := range out {
		ds[i] = c.Delivery
	}
	return ds, nil
}

// claimed is one returned row with the columns that order it.
type claimed struct {
	queue.Delivery
	seq, readyAt int64
}

func scanClaimed(row []hrana.Value) (claimed, error) {
	if len(row) != 8 {
		return claimed{}, fmt.Errorf("claim returned %d columns, want 8", len(row))
	}
	for _, i := range []int{0, 4, 5, 7} {
		if row[i].Kind != hrana.KindInteger {
			return claimed{}, fmt.Errorf("claim returned column %d of type %s, want integer", i, row[i].Kind)
		}
	}
	if row[1].Kind != hrana.KindText || row[3].Kind != hrana.KindText || row[6].Kind != hrana.KindText {
		return claimed{}, fmt.Errorf("claim returned %v, want text id, content type and receipt", row)
	}
	body := row[2].Blob
	switch row[2].Kind {
	case hrana.KindBlob:
	case hrana.KindText: // a server that stored an empty blob as text
		body = []byte(row[2].Text)
	default:
		return claimed{}, fmt.Errorf("claim returned a body of type %s", row[2].Kind)
	}
	if body == nil {
		body = []byte{}
	}
	return claimed{
		Delivery: queue.Delivery{
			ID: row[1].Text, Timestamp: time.UnixMilli(row[4].Int).UTC(), Body: body,
			ContentType: row[3].Text, Attempts: int(row[5].Int), Receipt: row[6].Text,
		},
		seq: row[0].Int, readyAt: row[7].Int,
	}, nil
}

func compare(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
