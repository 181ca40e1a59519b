package queuelocal

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/dwk/fleet/appliance/bindings/queue"
)

// Settle applies settlements of deliveries from q in one transaction,
// skipping those whose receipt is no longer current.
func (b *Broker) Settle(ctx context.Context, q string, settlements []queue.Settlement) error {
	if err := queue.ValidateName(q); err != nil {
		return err
	}
	if err := queue.ValidateSettlements(q, settlements); err != nil {
		return fmt.Errorf("settle on queue %q: %w", q, err)
	}
	if len(settlements) == 0 {
		return nil
	}
	err := b.inTx(ctx, func(tx *sql.Tx) error {
		now := b.now()
		for _, s := range settlements {
			var err error
			switch {
			case s.Kind == queue.SettleRetry:
				_, err = tx.ExecContext(ctx, `
					UPDATE messages SET visible_at = ?, receipt = NULL
					WHERE queue = ? AND id = ? AND receipt = ?`,
					now.Add(s.Delay).UnixMilli(), q, s.ID, s.Receipt)
			case s.Kind == queue.SettleDeadLetter && s.DeadLetterQueue != "":
				_, err = tx.ExecContext(ctx, `
					UPDATE messages SET queue = ?, visible_at = ?, attempts = 0, receipt = NULL
					WHERE queue = ? AND id = ? AND receipt = ?`,
					s.DeadLetterQueue, now.UnixMilli(), q, s.ID, s.Receipt)
			default: // ack, or dead-letter with nowhere to go
				_, err = tx.ExecContext(ctx, `
					DELETE FROM messages WHERE queue = ? AND id = ? AND receipt = ?`,
					q, s.ID, s.Receipt)
			}
			if err != nil {
				return fmt.Errorf("%s message %s: %w", s.Kind, s.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("settle on queue %q: %w", q, err)
	}
	return nil
}
