package cronlease

import (
	"testing"
	"time"
)

// TestRecent lists the latest won ticks of one schedule, newest first,
// naming who won each, and none of another schedule's.
func TestRecent(t *testing.T) {
	db := newFleetDB(t)
	a := newClaimer(t, db.open(t, nil), "a", Options{})
	b := newClaimer(t, db.open(t, nil), "b", Options{})
	ctx := ctxFor(t)
	t0 := time.UnixMilli(1_900_000_000_000).UTC()
	for i, c := range []*Claimer{a, b, a, b} {
		if won, err := claimed(c.Claim(ctx, "w * * * * *", t0.Add(time.Duration(i)*time.Minute))); err != nil || !won {
			t.Fatalf("claim %d: %v, %v", i, won, err)
		}
	}
	if won, err := claimed(a.Claim(ctx, "other * * * * *", t0.Add(time.Hour))); err != nil || !won {
		t.Fatalf("claim of another schedule: %v, %v", won, err)
	}
	got, err := b.Recent(ctx, "w * * * * *", 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []Tick{
		{Schedule: "w * * * * *", At: t0.Add(3 * time.Minute), Member: "b"},
		{Schedule: "w * * * * *", At: t0.Add(2 * time.Minute), Member: "a"},
		{Schedule: "w * * * * *", At: t0.Add(time.Minute), Member: "b"},
	}
	if len(got) != len(want) {
		t.Fatalf("Recent = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Schedule != want[i].Schedule || !got[i].At.Equal(want[i].At) || got[i].Member != want[i].Member {
			t.Errorf("Recent[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
}
