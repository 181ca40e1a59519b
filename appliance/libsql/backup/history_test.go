package backup

import (
	"testing"
	"time"
)

func TestHistoryAtAndExpired(t *testing.T) {
	at := func(s int) time.Time { return time.Unix(1_000_000+int64(s), 0) }
	gen := func(s int, snapshot bool) *generation {
		g := &generation{name: timeName(at(s)), start: at(s), snapshot: snapshot}
		g.keys = []string{"ns/" + g.name + "/" + snapshotName}
		return g
	}
	g10, g20, g25, g30 := gen(10, true), gen(20, true), gen(25, false), gen(30, true)
	h := history{gens: []*generation{g10, g20, g25, g30}}
	for _, c := range []struct {
		t    int
		want *generation
	}{{5, nil}, {10, g10}, {19, g10}, {27, g20}, {40, g30}} {
		if got := h.at(at(c.t)); got != c.want {
			t.Errorf("at(%d) = %v, want %v", c.t, got, c.want)
		}
	}
	if got := h.expired(at(22)); len(got) != 1 || got[0] != g10.keys[0] {
		t.Errorf("expired(22) = %v, want only the generation before the one a restore to 22 needs", got)
	}

	deleted := history{gens: []*generation{g10}, deletions: []time.Time{at(15)}, markers: []string{"ns/deleted-x"}}
	if got := deleted.at(at(20)); got != nil {
		t.Errorf("at after deletion = %v, want nil", got)
	}
	if got := deleted.at(at(12)); got != g10 {
		t.Errorf("at before deletion = %v, want g10", got)
	}
	if got := deleted.expired(at(14)); len(got) != 0 {
		t.Errorf("expired before the deletion passes retention = %v, want nothing", got)
	}
	if got := deleted.expired(at(16)); len(got) != 2 {
		t.Errorf("expired after = %v, want the generation and the marker", got)
	}
	recreated := history{gens: []*generation{g10, g20}, deletions: []time.Time{at(15)}, markers: []string{"ns/deleted-x"}}
	if got := recreated.at(at(21)); got != g20 {
		t.Errorf("at after re-creation = %v, want g20", got)
	}
}
