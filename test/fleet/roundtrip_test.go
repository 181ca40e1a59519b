package fleet

import (
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/server"
	"github.com/dwk/fleet/test/fleettest"
)

// incrementCounting increments counter name through url, asking for the
// request's own libSQL round trips (server.RoundTripsHeader), and returns
// the serving member and the round trips to the coordination database and
// to other databases.
func incrementCounting(c *http.Client, url, name string) (member string, coord, other int64, err error) {
	req, err := http.NewRequest(http.MethodPost, url+"/counter/"+name+"/increment", nil)
	if err != nil {
		return "", 0, 0, err
	}
	req.Header.Set(server.RoundTripsHeader, "1")
	resp, err := c.Do(req)
	if err != nil {
		return "", 0, 0, err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return "", 0, 0, fmt.Errorf("increment %s: %s", name, resp.Status)
	}
	h := resp.Header.Get(server.RoundTripsHeader)
	if _, err := fmt.Sscanf(h, "coord=%d libsql=%d", &coord, &other); err != nil {
		return "", 0, 0, fmt.Errorf("increment %s: %s = %q: %v", name, server.RoundTripsHeader, h, err)
	}
	return resp.Header.Get("X-Dwk-Member"), coord, other, nil
}

// TestHeldLeaseCostsNoCoordination: with the lease held and fresh, serving a
// request makes zero round trips to the coordination store. The round trips
// are counted per request (tagged with the request's context), so
// background work (heartbeats, membership, alarm polls) is not
// in the count; the first request to an object, which must read or take
// its lease, shows the count is live.
func TestHeldLeaseCostsNoCoordination(t *testing.T) {
	f := fleettest.Start(t, fleettest.Options{LeaseTTL: 10 * time.Second})
	r := f.Replicas[0]
	// Warm up until r itself holds the object (its member header).
	var name string
	for i := range 50 {
		n := fmt.Sprintf("rt-%d", i)
		m, coord, _, err := incrementCounting(client, r.Public, n)
		if err != nil {
			t.Fatal(err)
		}
		if coord == 0 {
			t.Fatalf("first request to %s made no coordination round trip: the lease was neither read nor taken, or the count is not live", n)
		}
		if m == r.Member {
			name = n
			break
		}
	}
	if name == "" {
		t.Fatal("no object placed on replica r0 in 50 tries")
	}
	// Straight to the holder's internal listener (where the front doors
	// send it): the held-lease path alone.
	const n = 200
	var coord, other int64
	internal := f.InternalClient()
	for range n {
		m, c, o, err := incrementCounting(internal, "http://"+r.Internal, name)
		if err != nil {
			t.Fatal(err)
		}
		if m != r.Member {
			t.Fatalf("%s moved from %s to %s", name, r.Member, m)
		}
		coord, other = coord+c, other+o
	}
	t.Logf("%d requests to the holder with the lease held: %d coordination round trips, %d to other libSQL databases", n, coord, other)
	if coord != 0 {
		t.Errorf("%d coordination round trips over %d requests with a held lease, want 0", coord, n)
	}
	// Through the front door: the same, once its lease cache names the
	// holder; a request it sends to another replica costs that replica's
	// lookup of the holder (logged, not enforced).
	coord, other = 0, 0
	for range n {
		_, c, o, err := incrementCounting(client, r.Public, name)
		if err != nil {
			t.Fatal(err)
		}
		coord, other = coord+c, other+o
	}
	t.Logf("%d requests through the front door: %d coordination round trips, %d to other libSQL databases", n, coord, other)
}
