package lease

import (
	"testing"
)

// TestHistory takes one object's lease on two managers in turn, more
// often than HistoryLen: History lists the latest HistoryLen tenures,
// newest first, with their holders.
func TestHistory(t *testing.T) {
	e := newEnv(t)
	ctx := ctxFor(t)
	ms := []*Manager{manager(t, e.store, "a", nil), manager(t, e.store, "b", nil)}
	const n = HistoryLen + 3
	for i := range n {
		l, err := ms[i%2].Acquire(ctx, "C", "obj")
		if err != nil {
			t.Fatalf("acquire %d: %v", i, err)
		}
		if err := l.Release(ctx); err != nil {
			t.Fatal(err)
		}
	}
	got, err := History(ctx, e.store, "C", "obj")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != HistoryLen {
		t.Fatalf("History: %d tenures, want %d", len(got), HistoryLen)
	}
	for i, ten := range got {
		epoch := int64(n - i)
		want := []string{"b", "a"}[epoch%2] // epoch 1 was a's
		if ten.Epoch != epoch || ten.Holder != want || ten.Addr != want+".internal:9000" || ten.Acquired.IsZero() {
			t.Errorf("tenure %d = %+v, want epoch %d held by %s", i, ten, epoch, want)
		}
	}
	// The deleted tenures are gone from the store, not only from the page.
	for epoch := int64(1); epoch <= n-HistoryLen; epoch++ {
		ent, err := e.store.Get(ctx, HistoryKeyFor("C", "obj", epoch))
		if err != nil || ent.Exists() {
			t.Errorf("tenure %d: still stored (%v)", epoch, err)
		}
	}
	if other, err := History(ctx, e.store, "C", "other"); err != nil || len(other) != 0 {
		t.Errorf("History of an object never leased: %v, %v", other, err)
	}
}
