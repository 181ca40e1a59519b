package lease

import (
	"context"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/test/slowproxy"
)

// TestSlowRenewalThatLandsInTimeKeepsLeases slows every round trip to
// libSQL past the renew interval but well inside the lease's deadline:
// renewals take longer than an interval, still land in time, and keep the
// lease.
func TestSlowRenewalThatLandsInTimeKeepsLeases(t *testing.T) {
	e := newEnv(t)
	proxy := slowproxy.New(t, netip.MustParseAddr("127.0.0.1"), strings.TrimPrefix(e.srv.URL, "http://"))
	c, err := hranaclient.New(hranaclient.Config{URL: "http://" + proxy.Addr, AuthToken: e.srv.AuthToken, Namespace: e.store.Client().Namespace()})
	if err != nil {
		t.Fatal(err)
	}
	st, err := coord.Open(ctxFor(t), c, coord.Options{SweepInterval: -1, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close(context.Background()) })
	m := manager(t, st, "a", nil) // TTL 1s: renewals every 333ms, deadline 800ms after each
	l, err := m.Acquire(ctxFor(t), "C", "slow")
	if err != nil {
		t.Fatal(err)
	}
	// A round trip now takes about 450ms: more than the renew interval,
	// less than the deadline.
	if err := proxy.Delay(225 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proxy.Delay(0) })
	select {
	case <-l.Lost():
		t.Fatal("the lease was lost although every renewal landed before its deadline")
	case <-time.After(4 * time.Second):
	}
}
