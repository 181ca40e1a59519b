package objectid

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strings"
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

// TestScoreGolden pins the weights: every replica and front door must rank
// members the same way, whatever version computes them.
func TestScoreGolden(t *testing.T) {
	var id ID
	for i := range id {
		id[i] = byte(i)
	}
	long := strings.Repeat("m", 200) // past the stack buffer
	for _, c := range []struct {
		member string
		want   uint64
	}{
		{"replica-1", 0xea6a20fb1c0c18fe},
		{"", 0x699cacdb4c39d8e0},
		{long, scoreOf(id, long)},
	} {
		if got := Score(id, c.member); got != c.want {
			t.Errorf("Score(id, %.12q) = %#x, want %#x", c.member, got, c.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { Score(id, "replica-1") }); n != 0 {
		t.Errorf("Score allocates %v times", n)
	}
}

// scoreOf is Score as its doc states it.
func scoreOf(id ID, member string) uint64 {
	sum := sha256.Sum256(append(append([]byte(member), 0), id[:]...))
	return binary.BigEndian.Uint64(sum[:8])
}
