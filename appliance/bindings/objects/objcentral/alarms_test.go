package objcentral_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objcentral"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/libsqlserver"
	"github.com/dwk/fleet/test/wait"
)

func newIndex(t *testing.T, b *backend, claimer string, visibility time.Duration) *objcentral.AlarmIndex {
	t.Helper()
	x, err := objcentral.NewAlarmIndex(objcentral.AlarmConfig{Coord: b.coordStore(t), Claimer: claimer, Visibility: visibility})
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func names(es []objects.AlarmEntry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Object.Namespace()+"/"+e.Object.String()[:6])
	}
	return out
}

func TestAlarmIndexPutDeleteDue(t *testing.T) {
	b := newBackend(t, libsqlserver.Start(t))
	x := newIndex(t, b, "a", time.Minute)
	ctx := ctxFor(t)
	t0 := time.UnixMilli(1_900_000_000_000)
	a, bb, c, other := testID("A", "a"), testID("A", "b"), testID("A", "c"), testID("B", "x")
	for _, e := range []objects.AlarmEntry{
		{Object: a, At: t0.Add(2 * time.Second)},
		{Object: bb, At: t0.Add(time.Second), Retries: 3},
		{Object: c, At: t0.Add(time.Hour)},
		{Object: other, At: t0},
	} {
		if err := x.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	// Put replaces: a moves to an hour later, so it is no longer due.
	if err := x.Put(ctx, objects.AlarmEntry{Object: a, At: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	due, err := x.Due(ctx, []string{"A"}, t0.Add(5*time.Second), 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(due) != 1 || !due[0].Object.Equal(bb) || due[0].Retries != 3 || !due[0].At.Equal(t0.Add(time.Second)) {
		t.Fatalf("Due = %+v, want b with 3 retries", due)
	}
	// Entries this index claimed come back to it (the runtime skips the
	// ones it runs); earliest first across namespaces, limited.
	due, _ = x.Due(ctx, []string{"A", "B"}, t0.Add(5*time.Second), 10)
	if got := fmt.Sprint(names(due)); len(due) != 2 || !due[0].Object.Equal(other) || !due[1].Object.Equal(bb) {
		t.Errorf("Due over A and B = %s, want B/x then A/b", got)
	}
	if due, _ := x.Due(ctx, []string{"A", "B"}, t0.Add(5*time.Second), 1); len(due) != 1 {
		t.Errorf("Due with limit 1 = %d entries", len(due))
	}
	if err := x.Delete(ctx, bb); err != nil {
		t.Fatal(err)
	}
	if err := x.Delete(ctx, bb); err != nil {
		t.Errorf("second Delete: %v", err)
	}
	if due, _ := x.Due(ctx, []string{"A"}, t0.Add(2*time.Hour), 10); len(due) != 2 {
		t.Errorf("Due later = %s, want a and c", names(due))
	}
}

// TestAlarmIndexClaimsOnce polls one set of due entries from three indexes
// (three replicas) at once: each entry goes to exactly one of them.
func TestAlarmIndexClaimsOnce(t *testing.T) {
	b := newBackend(t, libsqlserver.Start(t))
	ctx := ctxFor(t)
	xs := []*objcentral.AlarmIndex{newIndex(t, b, "r1", time.Minute), newIndex(t, b, "r2", time.Minute), newIndex(t, b, "r3", time.Minute)}
	const n = 40
	now := time.Now()
	for i := range n {
		if err := xs[0].Put(ctx, objects.AlarmEntry{Object: testID("A", fmt.Sprint(i)), At: now.Add(-time.Duration(i) * time.Millisecond)}); err != nil {
			t.Fatal(err)
		}
	}
	// Each poller runs what it gets, as the runtime does: it ends the
	// entry with Delete, which also ends the claim.
	var mu sync.Mutex
	owner := map[string]int{}
	var wg sync.WaitGroup
	for i, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				due, err := x.Due(ctx, []string{"A"}, now, 4)
				if err != nil {
					t.Error(err)
					return
				}
				if len(due) == 0 {
					return
				}
				for _, e := range due {
					k := e.Object.String()
					mu.Lock()
					if o, ok := owner[k]; ok {
						t.Errorf("entry %s returned to replica %d after replica %d ran it", k[:8], i, o)
					}
					owner[k] = i
					mu.Unlock()
					if err := x.Delete(ctx, e.Object); err != nil {
						t.Error(err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if len(owner) != n {
		t.Errorf("%d of %d entries claimed", len(owner), n)
	}
}

// TestAlarmIndexClaimExpires checks that a claim hides an entry from other
// replicas only until its visibility timeout ends, and only until the
// next Put.
func TestAlarmIndexClaimExpires(t *testing.T) {
	b := newBackend(t, libsqlserver.Start(t))
	ctx := ctxFor(t)
	dead, alive := newIndex(t, b, "dead", 300*time.Millisecond), newIndex(t, b, "alive", time.Minute)
	id := testID("A", "x")
	if err := dead.Put(ctx, objects.AlarmEntry{Object: id, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if due, _ := dead.Due(ctx, []string{"A"}, time.Now(), 10); len(due) != 1 {
		t.Fatalf("claimer got %d entries", len(due))
	}
	if due, _ := alive.Due(ctx, []string{"A"}, time.Now(), 10); len(due) != 0 {
		t.Fatalf("claimed entry returned to another replica")
	}
	wait.For(t, "the dead claimer's entry to come back", func() bool {
		due, _ := alive.Due(ctx, []string{"A"}, time.Now(), 10)
		return len(due) == 1
	})
	// alive claimed it; a Put (a retry, say) ends the claim at once.
	if err := alive.Put(ctx, objects.AlarmEntry{Object: id, At: time.Now(), Retries: 1}); err != nil {
		t.Fatal(err)
	}
	due, _ := dead.Due(ctx, []string{"A"}, time.Now(), 10)
	if len(due) != 1 || due[0].Retries != 1 {
		t.Errorf("after Put, Due = %+v; want the retry entry", due)
	}
}

// TestAlarmsFireOnHolderTimer sets alarms through two replicas whose polls
// are an hour apart, so only the holder's timer can run them: each runs
// once, on the holder, claimed through the index.
func TestAlarmsFireOnHolderTimer(t *testing.T) {
	p := newTestProbe(t.Name())
	_, rs := startFleet(t, 2, func(i int, o *replicaOptions) {
		o.objects.AlarmPollInterval = time.Hour
		name := fmt.Sprintf("r%d", i+1)
		o.env = func(string) *worker.Env {
			return worker.NewEnv("test", worker.Bindings{Vars: map[string]string{varReplica: name, varProbe: t.Name()}})
		}
	})
	const n = 8
	for i := range n {
		r := rs[i%len(rs)]
		if code, body := r.do(t, http.MethodPost, fmt.Sprint("t", i), fmt.Sprintf("/alarm?ms=%d", 100+20*i)); code != http.StatusOK {
			t.Fatalf("set alarm: %d %s", code, body)
		}
	}
	wait.Within(t, 15*time.Second, "every alarm to fire", func() bool {
		for i := range n {
			if len(p.alarmRuns(fmt.Sprint("t", i))) == 0 {
				return false
			}
		}
		return true
	})
	for i := range n {
		name := fmt.Sprint("t", i)
		runs := p.alarmRuns(name)
		if len(runs) != 1 {
			t.Errorf("alarm of %s ran %d times (%v), want once", name, len(runs), runs)
			continue
		}
		if h := holder(t, rs[0], name); h != runs[0] {
			t.Errorf("alarm of %s ran on %s, the lease is held by %q", name, runs[0], h)
		}
	}
}

// TestAlarmIndexOverdue lists the alarms due at a time, of every class,
// earliest first, bounded by the limit, without claiming them.
func TestAlarmIndexOverdue(t *testing.T) {
	b := newBackend(t, libsqlserver.Start(t))
	x := newIndex(t, b, "a", time.Minute)
	ctx := ctxFor(t)
	t0 := time.UnixMilli(1_900_000_000_000)
	a, bb, later := testID("A", "a"), testID("B", "b"), testID("A", "later")
	for _, e := range []objects.AlarmEntry{
		{Object: a, At: t0.Add(2 * time.Second)},
		{Object: bb, At: t0.Add(time.Second), Retries: 2},
		{Object: later, At: t0.Add(time.Hour)},
	} {
		if err := x.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	got, err := x.Overdue(ctx, t0.Add(5*time.Second), 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !got[0].Object.Equal(bb) || got[0].Retries != 2 || !got[1].Object.Equal(a) || !got[1].At.Equal(t0.Add(2*time.Second)) {
		t.Fatalf("Overdue = %v, want b then a", names(got))
	}
	if got, err := x.Overdue(ctx, t0.Add(5*time.Second), 1); err != nil || len(got) != 1 || !got[0].Object.Equal(bb) {
		t.Fatalf("Overdue with limit 1 = %v, %v; want b", names(got), err)
	}
	// Listing claimed nothing: the index still hands both out.
	due, err := x.Due(ctx, []string{"A", "B"}, t0.Add(5*time.Second), 10)
	if err != nil || len(due) != 2 {
		t.Fatalf("Due after Overdue = %v, %v; want both", names(due), err)
	}
}
