package jsapps

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/test/fleettest"
)

// leaseTTL is the lease (and member record) TTL of the fleet: a kill -9
// costs up to this long before another replica takes the room. Long
// enough that a loaded machine's late renewals do not move the room
// before the kill.
const leaseTTL = 5 * time.Second

// idleTimeout is how long a room with only its WebSockets open stays in
// memory before it hibernates: short, so that the test sees it wake.
const idleTimeout = time.Second

// startFleet starts a 3-replica central fleet that serves only the chat
// project at project.
func startFleet(t *testing.T, project string) *fleettest.Fleet {
	t.Helper()
	return fleettest.Start(t, fleettest.Options{LeaseTTL: leaseTTL, Edit: func(i int, c *config.Config) {
		c.Workers = []config.Worker{{Project: project}}
		c.Objects.IdleTimeout = config.Duration(idleTimeout)
	}})
}

// metric is a counter or gauge of r's /metrics, labelled with r's member
// id; 0 when absent.
func metric(r *fleettest.Replica, name string) float64 {
	v, _ := r.Metric(name + `{member="` + r.Member + `"}`)
	return v
}

// holder is the member that holds the room, from r's admin API (the
// fleet page's lookup).
func holder(t *testing.T, r *fleettest.Replica, room string) string {
	t.Helper()
	req, err := http.NewRequest("GET", r.Admin+"/admin/objects/lease?"+url.Values{"class": {roomClass}, "name": {room}}.Encode(), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+fleettest.AdminToken)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var o struct {
		Held   bool
		Holder string
	}
	if err := json.NewDecoder(resp.Body).Decode(&o); err != nil || resp.StatusCode != http.StatusOK || !o.Held {
		t.Fatalf("look up %s %q on %s: %s, %+v, %v", roomClass, room, r.Member, resp.Status, o, err)
	}
	return o.Holder
}

// split returns the replica called member and the others.
func split(t *testing.T, f *fleettest.Fleet, member string) (*fleettest.Replica, []*fleettest.Replica) {
	t.Helper()
	var h *fleettest.Replica
	var rest []*fleettest.Replica
	for _, r := range f.Replicas {
		if r.Member == member {
			h = r
		} else {
			rest = append(rest, r)
		}
	}
	if h == nil {
		t.Fatalf("holder %q: not a replica of the fleet", member)
	}
	return h, rest
}
