package leasecache

import (
	"context"
	"fmt"
	"time"
)

// logEvery: of a run of failed background refreshes, the first and every
// logEvery-th are logged, so that a store outage does not flood the log.
const logEvery = 100

// loop re-reads queued keys in batches and drops idle entries, until
// Close.
func (c *Cache) loop() {
	defer close(c.done)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Close cancels a batch in flight, so that Close is prompt.
		<-c.stop
		cancel()
	}()
	evict := time.NewTicker(c.o.MaxStale)
	defer evict.Stop()
	batch := make([]Key, 0, MaxBatch)
	for {
		select {
		case <-c.stop:
			return
		case <-evict.C:
			c.evict(c.o.Now())
		case k := <-c.queue:
			batch = append(batch[:0], k)
		fill:
			for len(batch) < MaxBatch {
				select {
				case k := <-c.queue:
					batch = append(batch, k)
				default:
					break fill
				}
			}
			c.refresh(ctx, batch)
		}
	}
}

// refresh re-reads keys in one round trip. On failure the entries stay as
// they are (stale answers keep being served until MaxStale) and may be
// queued again by their next use.
func (c *Cache) refresh(ctx context.Context, keys []Key) {
	rctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	hs, err := c.lookup.Holders(rctx, keys)
	cancel()
	if err == nil && len(hs) != len(keys) {
		err = fmt.Errorf("%w: %d for %d keys", errWrongCount, len(hs), len(keys))
	}
	now := c.o.Now()
	c.mu.Lock()
	for i, k := range keys {
		e := c.entries[k]
		if e == nil {
			continue
		}
		e.queued = false
		if err == nil {
			e.holder, e.fetched = hs[i], now
		}
	}
	c.mu.Unlock()
	switch {
	case err == nil:
		c.failing = 0
	case ctx.Err() == nil:
		c.failing++
		if c.failing == 1 || c.failing%logEvery == 0 {
			c.o.Logger.Warn("lease cache refresh failed; serving stale answers",
				"leases", len(keys), "failed_refreshes", c.failing, "err", err)
		}
	}
}

// evict drops entries not used for MaxStale.
func (c *Cache) evict(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.entries {
		if now.Sub(e.used) >= c.o.MaxStale && !e.queued {
			delete(c.entries, k)
		}
	}
}
