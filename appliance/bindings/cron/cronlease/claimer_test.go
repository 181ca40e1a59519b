package cronlease

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/cron"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/libsqlserver"
	"github.com/dwk/fleet/test/wait"
)

// fleetDB is one coordination database on a real libSQL server.
type fleetDB struct {
	srv *libsqlserver.Server
	ns  string
}

func newFleetDB(t *testing.T) *fleetDB {
	t.Helper()
	srv := libsqlserver.Start(t)
	admin, err := libsqladmin.New(libsqladmin.Config{URL: srv.AdminURL, AdminKey: srv.AdminKey})
	if err != nil {
		t.Fatal(err)
	}
	ns := libsqlserver.Namespace("cron")
	if err := admin.Create(ctxFor(t), ns); err != nil {
		t.Fatal(err)
	}
	return &fleetDB{srv: srv, ns: ns}
}

// open returns a store of its own (its own client), as each replica has.
func (f *fleetDB) open(t *testing.T, hc *http.Client) *coord.Store {
	t.Helper()
	c, err := hranaclient.New(hranaclient.Config{URL: f.srv.URL, AuthToken: f.srv.AuthToken, Namespace: f.ns, HTTPClient: hc})
	if err != nil {
		t.Fatal(err)
	}
	s, err := coord.Open(ctxFor(t), c, coord.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.Close(ctx)
	})
	return s
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func newClaimer(t *testing.T, s *coord.Store, member string, o Options) *Claimer {
	t.Helper()
	c, err := New(s, member, o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestClaimOncePerTick(t *testing.T) {
	db := newFleetDB(t)
	a := newClaimer(t, db.open(t, nil), "a", Options{})
	b := newClaimer(t, db.open(t, nil), "b", Options{ClaimTTL: 300 * time.Millisecond})
	ctx := ctxFor(t) // after the setup, which may be slow on a loaded machine
	tick := time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC)

	claim := func(c *Claimer, schedule string, tick time.Time) bool {
		t.Helper()
		cl, err := c.Claim(ctx, schedule, tick)
		if err != nil {
			t.Fatal(err)
		}
		return cl.Held != nil
	}
	if !claim(a, "w * * * * * *", tick) {
		t.Fatal("first claim of a tick lost")
	}
	if claim(b, "w * * * * * *", tick) {
		t.Error("a tick was won twice")
	}
	// The same process claiming again (the scheduler retries a claim that
	// failed, whose commit may have landed) finds its own claim.
	if !claim(a, "w * * * * * *", tick) {
		t.Error("a repeated claim by the winner lost its own tick")
	}
	// A restarted replica (a new Claimer, same member) does not.
	if claim(newClaimer(t, db.open(t, nil), "a", Options{}), "w * * * * * *", tick) {
		t.Error("a restarted replica won a tick its predecessor had won")
	}
	if l, ok, err := b.Holder(ctx, "w * * * * * *", tick); err != nil || !ok || l.Member != "a" || l.Token == "" {
		t.Errorf("Holder = %+v, %v, %v; want member a", l, ok, err)
	}
	if !claim(b, "w * * * * * *", tick.Add(time.Second)) {
		t.Error("the next tick was not claimable")
	}
	if !claim(b, "other * * * * * *", tick) {
		t.Error("the same tick of another schedule was not claimable")
	}
	// b's claims, neither renewed nor done, lapse after its short claim
	// TTL, by the server's clock.
	wait.For(t, "a claim with a 300ms TTL to lapse", func() bool { return claim(a, "other * * * * * *", tick) })
}

// claimed turns a Claim's answer into whether it won.
func claimed(c cron.Claim, err error) (bool, error) { return c.Held != nil, err }

// lossy forwards requests and, while drop > 0, throws the response away:
// the server did the work but the client never hears of it.
type lossy struct {
	next http.RoundTripper
	drop atomic.Int32
}

func (l *lossy) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := l.next.RoundTrip(r)
	if err != nil || l.drop.Add(-1) < 0 {
		return resp, err
	}
	resp.Body.Close()
	return nil, errors.New("connection reset by test")
}

func TestLostAnswerIsReadBack(t *testing.T) {
	ctx := ctxFor(t)
	db := newFleetDB(t)
	tr := &lossy{next: http.DefaultTransport}
	a := newClaimer(t, db.open(t, &http.Client{Transport: tr}), "a", Options{})
	b := newClaimer(t, db.open(t, nil), "b", Options{})
	tick := time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC)

	tr.drop.Store(1) // the commit lands, its answer is lost
	won, err := claimed(a.Claim(ctx, "s", tick))
	if err != nil || !won {
		t.Fatalf("Claim with a lost answer = %v, %v; want a win found by reading back", won, err)
	}
	if won, err := claimed(b.Claim(ctx, "s", tick)); err != nil || won {
		t.Errorf("another replica's Claim = %v, %v; want a loss", won, err)
	}

	tr.drop.Store(1)
	won, err = claimed(a.Claim(ctx, "s", tick.Add(time.Second)))
	if err != nil || !won {
		t.Fatalf("second lost answer: %v, %v", won, err)
	}
	tr.drop.Store(2) // the commit's and the read-back's answers are lost
	if _, err := a.Claim(ctx, "s", tick.Add(2*time.Second)); !errors.Is(err, coord.ErrOutcomeUnknown) {
		t.Errorf("Claim with the store unreadable = %v, want ErrOutcomeUnknown", err)
	}
}

func TestNewValidates(t *testing.T) {
	if _, err := New(nil, "a", Options{}); !errors.Is(err, ErrConfig) {
		t.Errorf("New(nil store) = %v", err)
	}
	if _, err := New(&coord.Store{}, "", Options{}); !errors.Is(err, ErrConfig) {
		t.Errorf("New(no member) = %v", err)
	}
	if _, err := New(&coord.Store{}, "a", Options{TTL: -time.Second}); !errors.Is(err, ErrConfig) {
		t.Errorf("New(negative ttl) = %v", err)
	}
	if _, err := New(&coord.Store{}, "a", Options{TTL: time.Second, ClaimTTL: time.Second}); !errors.Is(err, ErrConfig) {
		t.Errorf("New(claim ttl not shorter than ttl) = %v", err)
	}
}

// TestSchedulersRunEachTickOnce runs three schedulers of one entry that
// ticks every second against one coordination store and stops one of them
// partway: every tick runs exactly once fleet-wide.
func TestSchedulersRunEachTickOnce(t *testing.T) {
	db := newFleetDB(t)
	const expr = "* * * * * *"
	var (
		mu   sync.Mutex
		runs = map[time.Time][]string{}
	)
	type replica struct {
		name  string
		sched *cron.Scheduler
	}
	var replicas []replica
	for _, name := range []string{"r1", "r2", "r3"} {
		claimer := newClaimer(t, db.open(t, nil), name, Options{})
		s, err := cron.NewScheduler(cron.SchedulerConfig{
			Entries: []cron.Entry{{Worker: "w", Schedule: cron.MustParse(expr)}},
			Claimer: claimer,
			Logger:  slog.New(slog.DiscardHandler),
			Run: func(_ context.Context, _ string, ev worker.ScheduledEvent) error {
				mu.Lock()
				defer mu.Unlock()
				runs[ev.ScheduledTime] = append(runs[ev.ScheduledTime], name)
				return nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		replicas = append(replicas, replica{name, s})
	}
	stop := func(r replica) time.Time {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := r.sched.Stop(ctx); err != nil {
			t.Errorf("stop %s: %v", r.name, err)
		}
		return time.Now()
	}
	for _, r := range replicas {
		if err := r.sched.Start(); err != nil {
			t.Fatal(err)
		}
	}
	started := time.Now()

	time.Sleep(2500 * time.Millisecond) // real ticks: the store's clock is real
	stop(replicas[1])
	time.Sleep(2500 * time.Millisecond)
	stopped := stop(replicas[0])
	stop(replicas[2])

	mu.Lock()
	defer mu.Unlock()
	var ticks []time.Time
	perReplica := map[string]int{}
	for tick, who := range runs {
		ticks = append(ticks, tick)
		if len(who) != 1 {
			t.Errorf("tick %s ran %d times (%v)", tick.Format("15:04:05"), len(who), who)
		}
		for _, w := range who {
			perReplica[w]++
		}
	}
	sort.Slice(ticks, func(i, j int) bool { return ticks[i].Before(ticks[j]) })
	// Every whole second after all three started and before the last
	// two stopped ran.
	for tick := started.Truncate(time.Second).Add(time.Second); tick.Before(stopped.Add(-time.Second)); tick = tick.Add(time.Second) {
		if len(runs[tick.UTC()]) != 1 {
			t.Errorf("tick %s ran %d times, want once", tick.Format("15:04:05"), len(runs[tick.UTC()]))
		}
	}
	t.Logf("%d ticks, runs per replica %v", len(ticks), perReplica)
	if len(ticks) < 4 {
		t.Errorf("only %d ticks ran in 5s", len(ticks))
	}
	for _, r := range replicas {
		if s := r.sched.Stats(); s.ClaimErrors != 0 || s.RunErrors != 0 {
			t.Errorf("%s stats %+v", r.name, s)
		}
	}
}
