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

// TestReadOnFail tries a write on the assumption that keys are absent:
// when they are, it commits (and reads nothing); when one is not, nothing
// is written and the commit returns both keys as they are, read in the
// same round trip.
func TestReadOnFail(t *testing.T) {
	srv := startServer(t)
	s := srv.open(t, Options{})
	ctx := ctxFor(t)
	a, b := tuple.Key{"rof", "a"}, tuple.Key{"rof", "b"}
	try := func(value string) CommitResult {
		t.Helper()
		res, err := s.Atomic().Check(a, 0).Check(b, 0).Set(a, []byte(value), 0).ReadOnFail(a, b).Commit(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := try("one")
	if !first.OK || first.Read != nil {
		t.Fatalf("commit on absent keys: %+v, want OK and nothing read", first)
	}
	second := try("two")
	if second.OK || len(second.Read) != 2 {
		t.Fatalf("commit on a present key: %+v, want a failed check and both keys read", second)
	}
	if got := second.Read[0]; string(got.Value) != "one" || got.Versionstamp != first.Versionstamp || got.Key.String() != a.String() {
		t.Fatalf("read a: %+v, want the first commit's value and versionstamp", got)
	}
	if got := second.Read[1]; got.Exists() || got.Key.String() != b.String() {
		t.Fatalf("read b: %+v, want absent", got)
	}
	if e, err := s.Get(ctx, a); err != nil || string(e.Value) != "one" {
		t.Fatalf("after the failed commit: %q, %v; want the first value kept", e.Value, err)
	}
}
