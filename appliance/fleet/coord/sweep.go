package coord

import (
	"context"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// sweepBatch bounds one DELETE so that a backlog of expired keys never
// holds the write lock for long.
const sweepBatch = 1000

// Sweep deletes keys that have expired by the server's clock and returns
// how many it deleted. The Store's sweeper calls it every SweepInterval;
// reads never depend on it. Each batch of up to 1000 keys is one round
// trip.
func (s *Store) Sweep(ctx context.Context) (int, error) {
	ctx, cancel, err := s.begin(ctx)
	if err != nil {
		return 0, err
	}
	defer cancel()
	total := 0
	for {
		res, err := s.c.Execute(ctx, noRows(hrana.NewStmt(`DELETE FROM coord_kv WHERE key IN (
			SELECT key FROM coord_kv WHERE expires_at IS NOT NULL AND expires_at <= `+nowMS+` LIMIT ?)`,
			hrana.Integer(sweepBatch))))
		if err != nil {
			return total, fmt.Errorf("sweep expired coordination keys: %w", err)
		}
		total += int(res.AffectedRowCount)
		if res.AffectedRowCount < sweepBatch {
			return total, nil
		}
	}
}

func (s *Store) sweepLoop(ctx context.Context) {
	t := time.NewTicker(s.sweep)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if _, err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("coordination sweep failed", "namespace", s.c.Namespace(), "err", err)
		}
	}
}
