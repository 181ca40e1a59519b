package coord

import (
	"context"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
)

// Watch polls keys every interval (default 1s, at least 10ms) and sends
// their entries, in the order given, first at once and then whenever any
// of them changes (a new versionstamp, or expiry or deletion). Each poll
// is one round trip. The channel is closed when ctx ends or the Store
// closes. A slow receiver delays polling, it misses intermediate states,
// never the latest one. Failed polls are logged and retried at the next
// interval.
func (s *Store) Watch(ctx context.Context, keys []tuple.Key, interval time.Duration) (<-chan []Entry, error) {
	if s.closed.Load() {
		return nil, ErrClosed
	}
	if len(keys) > MaxGetMany {
		return nil, fmt.Errorf("watch: %d keys: %w (limit %d)", len(keys), ErrTooManyOps, MaxGetMany)
	}
	for i, k := range keys {
		if _, err := encodeKey(k); err != nil {
			return nil, fmt.Errorf("watch: key %d: %w", i, err)
		}
	}
	if interval <= 0 {
		interval = time.Second
	}
	interval = max(interval, 10*time.Millisecond)
	keys = append([]tuple.Key(nil), keys...)
	ch := make(chan []Entry)
	if err := s.goOwned(func() { s.watchLoop(ctx, keys, interval, ch) }); err != nil {
		return nil, err
	}
	return ch, nil
}

func (s *Store) watchLoop(ctx context.Context, keys []tuple.Key, interval time.Duration, ch chan<- []Entry) {
	defer close(ch)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(s.stopCtx, cancel)()
	var last []Entry
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		cctx, ccancel := s.callCtx(ctx)
		entries, err := s.getMany(cctx, keys)
		ccancel()
		switch {
		case err != nil && ctx.Err() == nil:
			s.log.Warn("coordination watch poll failed", "keys", len(keys), "err", err)
		case err == nil && (last == nil || changed(last, entries)):
			select {
			case ch <- entries:
				last = entries
			case <-ctx.Done():
				return
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func changed(a, b []Entry) bool {
	for i := range a {
		if a[i].Versionstamp != b[i].Versionstamp {
			return true
		}
	}
	return false
}
