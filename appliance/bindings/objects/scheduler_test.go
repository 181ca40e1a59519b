package objects_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/process/clock/clocktest"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/wait"
)

// ringerClass's alarm succeeds and records the clock's time when it ran;
// its Fetch sets the alarm at the RFC 3339 time in the query parameter
// "at", or deletes it when "at" is empty.
const ringerClass = "objects_test.Ringer"

func init() {
	worker.RegisterObject(ringerClass, func(s *worker.State, _ *worker.Env) worker.Object { return ringer{s} })
}

type ringer struct{ s *worker.State }

var (
	ringerMu    sync.Mutex
	ringerClock interface{ Now() time.Time }
	ringerRuns  = map[string][]time.Time{}
)

func (r ringer) Fetch(w http.ResponseWriter, req *http.Request) {
	var err error
	if s := req.URL.Query().Get("at"); s == "" {
		err = r.s.Storage.DeleteAlarm(req.Context())
	} else if at, perr := time.Parse(time.RFC3339Nano, s); perr != nil {
		err = perr
	} else {
		err = r.s.Storage.SetAlarm(req.Context(), at)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

func (r ringer) Alarm(context.Context, worker.AlarmInfo) error {
	ringerMu.Lock()
	defer ringerMu.Unlock()
	ringerRuns[r.s.ID.String()] = append(ringerRuns[r.s.ID.String()], ringerClock.Now())
	return nil
}

// ringerTimes returns when the alarm of object id ran.
func ringerTimes(id worker.ObjectID) []time.Time {
	ringerMu.Lock()
	defer ringerMu.Unlock()
	return append([]time.Time(nil), ringerRuns[id.String()]...)
}

// newRingers opens a runtime on clock whose poll never comes (an hour
// apart), so only the timer can fire alarms, and binds ringerClass.
func newRingers(t *testing.T, clock *clocktest.Fake, tweak func(*objects.Config)) worker.ObjectNamespace {
	t.Helper()
	ringerMu.Lock()
	ringerClock = clock
	ringerMu.Unlock()
	rt := newRuntime(t, func(c *objects.Config) {
		c.Clock, c.AlarmPollInterval = clock, time.Hour
		if tweak != nil {
			tweak(c)
		}
	})
	ns, err := rt.Namespace("RINGER", ringerClass)
	if err != nil {
		t.Fatal(err)
	}
	return ns
}

// setAt sets the alarm of s at at (zero: deletes it).
func setAt(t *testing.T, s worker.Stub, at time.Time) {
	t.Helper()
	q := ""
	if !at.IsZero() {
		q = url.QueryEscape(at.Format(time.RFC3339Nano))
	}
	if body, err := fetchBody(t, s, "http://x/?at="+q); err != nil || body != "" {
		t.Fatalf("set alarm at %v: %q, %v", at, body, err)
	}
}

// stepTo waits until something sleeps on the clock until exactly at (the
// scheduler, having armed its timer), then moves the clock there.
func stepTo(t *testing.T, c *clocktest.Fake, at time.Time) {
	t.Helper()
	wait.For(t, "a timer armed for "+at.Format(time.StampMicro), func() bool { return slices.ContainsFunc(c.Timers(), at.Equal) })
	c.Advance(at.Sub(c.Now()))
}

// TestAlarmsFireOnTimer sets alarms at sub-millisecond times and moves the
// clock from one to the next: each runs at exactly its time (never before,
// though the index keeps milliseconds), with no poll in between.
func TestAlarmsFireOnTimer(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := clocktest.NewFake(t0)
	ns := newRingers(t, clock, nil)
	offsets := []time.Duration{100*time.Millisecond + 400*time.Microsecond, 250 * time.Millisecond, 4 * time.Second}
	stubs := make([]worker.Stub, len(offsets))
	for i, d := range offsets {
		stubs[i] = ns.Get(ns.NewUniqueID())
		setAt(t, stubs[i], t0.Add(d))
	}
	for i, d := range offsets {
		at := t0.Add(d)
		stepTo(t, clock, at)
		wait.For(t, "alarm "+d.String(), func() bool { return len(ringerTimes(stubs[i].ID())) > 0 })
		if got := ringerTimes(stubs[i].ID()); len(got) != 1 || !got[0].Equal(at) {
			t.Errorf("alarm set for +%s ran at %v, want once at +%s", d, got, d)
		}
	}
}

// TestAlarmRetriesFireOnTimer checks that retries are armed too: each runs
// at exactly its backoff time.
func TestAlarmRetriesFireOnTimer(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := clocktest.NewFake(t0)
	setFailerClock(clock)
	rt := newRuntime(t, func(c *objects.Config) {
		c.Clock, c.AlarmPollInterval, c.AlarmRetryBase = clock, time.Hour, time.Second
	})
	ns, _ := rt.Namespace("FAILER", failerClass)
	s := ns.Get(ns.NewUniqueID())
	at := t0.Add(time.Second)
	if _, err := fetchBody(t, s, "http://x/?at="+url.QueryEscape(at.Format(http.TimeFormat))); err != nil {
		t.Fatal(err)
	}
	for i, delay := range []time.Duration{0, time.Second, 2 * time.Second, 4 * time.Second} {
		at = at.Add(delay)
		stepTo(t, clock, at)
		wait.For(t, "attempt "+at.Format(time.TimeOnly), func() bool { return len(failerAttempts(s.ID())) > i })
		if got := failerAttempts(s.ID()); len(got) != i+1 || !got[i].Equal(at) {
			t.Fatalf("attempts at %v; want attempt %d at %v", got, i+1, at)
		}
		// The retry's delay counts from the failure: let it be booked
		// before time moves on.
		wait.For(t, "retry "+strconv.Itoa(i+1)+" booked", func() bool { return rt.Stats().AlarmsRetried > int64(i) })
	}
}

// TestAlarmBacklogDrainsWithoutPoll fires more alarms at once than may run
// at once: the ones left wait for a slot, not for the next poll.
func TestAlarmBacklogDrainsWithoutPoll(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := clocktest.NewFake(t0)
	ns := newRingers(t, clock, func(c *objects.Config) { c.AlarmConcurrency = 2 })
	at := t0.Add(time.Second)
	stubs := make([]worker.Stub, 7)
	for i := range stubs {
		stubs[i] = ns.Get(ns.NewUniqueID())
		setAt(t, stubs[i], at)
	}
	stepTo(t, clock, at)
	for i, s := range stubs {
		wait.For(t, "every alarm to run", func() bool { return len(ringerTimes(s.ID())) > 0 })
		if got := ringerTimes(s.ID()); len(got) != 1 || !got[0].Equal(at) {
			t.Errorf("alarm %d ran at %v, want once at %v", i, got, at)
		}
	}
}

// TestDeletedAlarmDoesNotFire deletes the earliest alarm after the timer
// was armed for it: the timer wakes for nothing, and the next alarm still
// runs on time.
func TestDeletedAlarmDoesNotFire(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := clocktest.NewFake(t0)
	ns := newRingers(t, clock, nil)
	gone, witness := ns.Get(ns.NewUniqueID()), ns.Get(ns.NewUniqueID())
	setAt(t, gone, t0.Add(100*time.Millisecond))
	setAt(t, witness, t0.Add(200*time.Millisecond))
	setAt(t, gone, time.Time{})
	stepTo(t, clock, t0.Add(100*time.Millisecond))
	stepTo(t, clock, t0.Add(200*time.Millisecond))
	wait.For(t, "the witness alarm", func() bool { return len(ringerTimes(witness.ID())) > 0 })
	if got := ringerTimes(gone.ID()); len(got) != 0 {
		t.Errorf("deleted alarm ran at %v", got)
	}
}

// aheadIndex is a memIndex that asks to be polled ahead of alarms' times,
// as a remote index does.
type aheadIndex struct {
	*memIndex
	ahead time.Duration
}

var _ objects.AlarmLookahead = aheadIndex{}

func (x aheadIndex) Lookahead() time.Duration { return x.ahead }

// TestAlarmClaimedAheadRunsOnTime checks that with an index that asks for
// a lookahead, the scheduler claims the alarm that much early and still
// runs it at exactly its time.
func TestAlarmClaimedAheadRunsOnTime(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := clocktest.NewFake(t0)
	idx := aheadIndex{newMemIndex(), 50 * time.Millisecond}
	ns := newRingers(t, clock, func(c *objects.Config) { c.Alarms = idx })
	s := ns.Get(ns.NewUniqueID())
	at := t0.Add(time.Second + 400*time.Microsecond)
	setAt(t, s, at)
	stepTo(t, clock, at.Add(-idx.ahead)) // the poll, which claims it
	stepTo(t, clock, at)                 // the run
	wait.For(t, "the alarm", func() bool { return len(ringerTimes(s.ID())) > 0 })
	if got := ringerTimes(s.ID()); len(got) != 1 || !got[0].Equal(at) {
		t.Errorf("alarm ran at %v, want once at %v", got, at)
	}
}

// TestHeldAlarmMovedEarlier moves an alarm earlier after the scheduler
// claimed it ahead of its old time: it runs at its new time.
func TestHeldAlarmMovedEarlier(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := clocktest.NewFake(t0)
	idx := aheadIndex{newMemIndex(), 200 * time.Millisecond}
	ns := newRingers(t, clock, func(c *objects.Config) { c.Alarms = idx })
	s := ns.Get(ns.NewUniqueID())
	setAt(t, s, t0.Add(time.Second))
	stepTo(t, clock, t0.Add(800*time.Millisecond)) // claimed, held until 1s
	at := t0.Add(900 * time.Millisecond)
	setAt(t, s, at)
	stepTo(t, clock, at)
	wait.For(t, "the alarm", func() bool { return len(ringerTimes(s.ID())) > 0 })
	if got := ringerTimes(s.ID()); len(got) != 1 || !got[0].Equal(at) {
		t.Errorf("alarm ran at %v, want once at %v", got, at)
	}
}
