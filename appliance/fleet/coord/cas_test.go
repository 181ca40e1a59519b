package coord

import (
	"encoding/binary"
	"errors"
	"sync"
	"testing"

	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
)

// TestConcurrentCAS has contenders increment one counter by
// read-check-write: every versionstamp must have exactly one winner, and
// the final value must equal the number of successful commits.
func TestConcurrentCAS(t *testing.T) {
	const contenders, attempts = 20, 50
	srv := startServer(t)
	s := srv.open(t, Options{})
	ctx := ctxFor(t)
	key := tuple.Key{"cas"}

	var (
		mu      sync.Mutex
		winners = map[Versionstamp]int{}
		wins    int
		errs    []error
		wg      sync.WaitGroup
	)
	for range contenders {
		wg.Go(func() {
			for range attempts {
				e, err := s.Get(ctx, key)
				if err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
					return
				}
				var n uint64
				if e.Exists() {
					n = binary.BigEndian.Uint64(e.Value)
				}
				res, err := s.Atomic().Check(key, e.Versionstamp).
					Set(key, binary.BigEndian.AppendUint64(nil, n+1), 0).Commit(ctx)
				mu.Lock()
				switch {
				case err != nil:
					errs = append(errs, err)
				case res.OK:
					wins++
					winners[res.Versionstamp]++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("errors during contention: %v", err)
	}
	for vs, n := range winners {
		if n != 1 {
			t.Errorf("versionstamp %v won %d times", vs, n)
		}
	}
	final := mustGet(t, s, key)
	if got := binary.BigEndian.Uint64(final.Value); got != uint64(wins) {
		t.Errorf("final value %d, successful commits %d", got, wins)
	}
	if wins == 0 || wins > contenders*attempts {
		t.Errorf("wins = %d", wins)
	}
	t.Logf("%d of %d attempts won", wins, contenders*attempts)
}
