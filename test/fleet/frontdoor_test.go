package fleet

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/dwk/fleet/test/fleettest"
)

// TestFrontDoorAffinity sends requests for each of several objects through
// every replica's front door: all are served by one replica, the holder,
// named in X-Dwk-Member.
func TestFrontDoorAffinity(t *testing.T) {
	f := fleettest.Start(t, fleettest.Options{})
	members := map[string]int{}
	for i := range 12 {
		name := fmt.Sprintf("aff-%d", i)
		var holder string
		for round := range 3 {
			for _, r := range f.Replicas {
				_, m, err := post(r.Public+"/counter/"+name+"/increment", nil)
				if err != nil {
					t.Fatal(err)
				}
				if holder == "" {
					holder = m
				}
				if m != holder {
					t.Errorf("%s round %d via %s: served by %s, earlier by %s", name, round, r.Member, m, holder)
				}
			}
		}
		members[holder]++
	}
	t.Logf("12 objects placed: %v", members)
	if len(members) < 2 {
		t.Errorf("all objects on one replica (%v): placement does not spread", members)
	}
}

// TestDrainingReplicaLeavesRotation drains one replica and watches another
// replica's front door place new objects: within one membership refresh
// interval (500ms) of the drain, none is served by the draining one. (A
// request that addresses no object is served by the replica that received
// it, so placement is what the front door balances.)
func TestDrainingReplicaLeavesRotation(t *testing.T) {
	f := fleettest.Start(t, fleettest.Options{})
	drainer, door := f.Replicas[0], f.Replicas[1]
	n := 0
	fresh := func() string {
		n++
		_, m, _ := get(fmt.Sprintf("%s/counter/rotation-%d", door.Public, n), nil)
		return m
	}
	seen := false
	for range 60 {
		if fresh() == drainer.Member {
			seen = true
			break
		}
	}
	if !seen {
		t.Fatalf("no new object was placed on %s through %s's front door", drainer.Member, door.Member)
	}
	drainer.Proc.Signal(syscall.SIGTERM)
	start := time.Now()
	var last time.Time
	for time.Since(start) < 2*time.Second {
		if fresh() == drainer.Member {
			last = time.Now()
		}
	}
	left := time.Duration(0)
	if !last.IsZero() {
		left = last.Sub(start)
	}
	t.Logf("%s served its last new object through another front door %v after SIGTERM", drainer.Member, left.Round(time.Millisecond))
	if left > 500*time.Millisecond+200*time.Millisecond {
		t.Errorf("draining replica still placed new objects %v after SIGTERM, want within the 500ms refresh interval", left)
	}
}
