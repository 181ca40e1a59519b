package objectid

import (
	"fmt"
	"testing"
)

func TestPickEmpty(t *testing.T) {
	if got := Pick(ID{}, nil); got != "" {
		t.Fatalf("Pick(nil) = %q", got)
	}
}

func TestPickStableAndMinimalMovement(t *testing.T) {
	members := []string{"r1", "r2", "r3", "r4"}
	fewer := []string{"r1", "r2", "r4"}
	counts := map[string]int{}
	for i := range 2000 {
		id := FromName(secret, "Counter", fmt.Sprint(i))
		got := Pick(id, members)
		counts[got]++
		if rev := Pick(id, []string{"r4", "r3", "r2", "r1"}); rev != got {
			t.Fatalf("order changed the pick: %s vs %s", rev, got)
		}
		if r := Rank(id, members); r[0] != got || len(r) != len(members) {
			t.Fatalf("Rank = %v, Pick = %s", r, got)
		}
		after := Pick(id, fewer)
		if got != "r3" && after != got {
			t.Fatalf("removing r3 moved id %d from %s to %s", i, got, after)
		}
	}
	for _, m := range members {
		if counts[m] < 350 || counts[m] > 650 {
			t.Errorf("member %s got %d of 2000 ids; distribution too skewed: %v", m, counts[m], counts)
		}
	}
}
