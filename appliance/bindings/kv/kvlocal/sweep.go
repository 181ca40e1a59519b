package kvlocal

import (
	"context"
	"fmt"
	"time"
)

// sweepBatch bounds one DELETE so a large backlog of expired keys never holds
// the write lock for long.
const sweepBatch = 1000

// Sweep deletes every key expired at the Store's current time and returns how
// many it deleted. The background sweeper calls it every SweepInterval; reads
// never depend on it, since they filter expired keys themselves.
func (s *Store) Sweep(ctx context.Context) (int, error) {
	total := 0
	for {
		res, err := s.db.ExecContext(ctx, `
			DELETE FROM kv WHERE key IN (
				SELECT key FROM kv WHERE expires_at IS NOT NULL AND expires_at <= ? LIMIT ?)`,
			s.nowMilli(), sweepBatch)
		if err != nil {
			return total, fmt.Errorf("sweep expired kv keys in %s: %w", s.path, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return total, fmt.Errorf("sweep expired kv keys in %s: %w", s.path, err)
		}
		total += int(n)
		if n < sweepBatch {
			return total, nil
		}
	}
}

func (s *Store) sweepLoop(ctx context.Context) {
	defer close(s.done)
	t := time.NewTicker(s.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if _, err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
			s.log.Error("kv sweep failed", "path", s.path, "err", err)
		}
	}
}
