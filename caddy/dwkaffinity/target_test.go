package dwkaffinity

import (
	"net/http/httptest"
	"testing"

	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/caddy/internal/fleetview"
)

// TestMemberForFollowsTheMembers checks that the placement remembered per
// object follows every change of the member snapshot, back and forth (the
// second snapshot lacks the first one's choice), and that a lease holder
// still wins over it.
func TestMemberForFollowsTheMembers(t *testing.T) {
	p := newPolicy(t)
	all := fleetview.NewSnapshot(members)
	noLeases := &fakeLeases{known: true}
	for _, name := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		id := objectid.FromName([]byte(testSecret), "Counter", name)
		r := httptest.NewRequest("GET", "/counter/"+name+"/value", nil)
		tgt := p.Target(r)
		if tgt.ID != id || tgt.IDString() != id.String() {
			t.Fatalf("object %q: target %s (%s), want %s", name, tgt.ID, tgt.IDString(), id)
		}
		placed := objectid.Pick(id, memberIDs(members))
		others := fleetview.NewSnapshot(nil)
		for i, m := range members {
			if m.ID == placed {
				others = fleetview.NewSnapshot(append(append([]fleetview.Member{}, members[:i]...), members[i+1:]...))
			}
		}
		for i, snap := range []*fleetview.Snapshot{all, others, all, others} {
			want := objectid.Pick(id, snap.IDs())
			// A new request: the target comes from the policy's cache.
			got, by := MemberFor(r.Context(), &fleetview.View{Members: snap, Leases: noLeases}, p.Target(r))
			if got != want || by != ByPlacement {
				t.Errorf("object %q, step %d: MemberFor = %q by %s, want %q by placement", name, i, got, by, want)
			}
		}
		leases := &fakeLeases{holders: map[objectid.ID]string{id: others.IDs()[0]}}
		if got, by := MemberFor(r.Context(), &fleetview.View{Members: all, Leases: leases}, p.Target(r)); got != others.IDs()[0] || by != ByLease {
			t.Errorf("object %q: MemberFor = %q by %s, want the holder %q", name, got, by, others.IDs()[0])
		}
	}
}
