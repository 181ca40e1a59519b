package cron

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/process/clock/clocktest"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/wait"
)

// run is one handler call as recorded.
type run struct {
	Worker string
	Event  worker.ScheduledEvent
}

type recorder struct {
	mu   sync.Mutex
	runs []run
	err  error
}

func (r *recorder) Run(_ context.Context, w string, ev worker.ScheduledEvent) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.runs = append(r.runs, run{w, ev})
	return r.err
}

func (r *recorder) get() []run {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]run(nil), r.runs...)
}

func (r *recorder) waitN(t *testing.T, n int) []run {
	t.Helper()
	wait.For(t, fmt.Sprintf("%d runs", n), func() bool { return len(r.get()) >= n })
	return r.get()
}

// sortRuns orders runs by tick, then worker name.
func sortRuns(rs []run) []run {
	sort.SliceStable(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		if !a.Event.ScheduledTime.Equal(b.Event.ScheduledTime) {
			return a.Event.ScheduledTime.Before(b.Event.ScheduledTime)
		}
		return a.Worker < b.Worker
	})
	return rs
}

func entry(w, expr string) Entry { return Entry{Worker: w, Schedule: MustParse(expr)} }

func newTestScheduler(t *testing.T, cfg SchedulerConfig) *Scheduler {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s, err := NewScheduler(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.Stop(ctx); err != nil {
			t.Errorf("Stop: %v", err)
		}
	})
	return s
}

func ev(expr string, at time.Time) worker.ScheduledEvent {
	return worker.ScheduledEvent{Cron: expr, ScheduledTime: at}
}

func TestSchedulerFiresEachTick(t *testing.T) {
	clock := clocktest.NewFake(base)
	rec := &recorder{}
	newTestScheduler(t, SchedulerConfig{
		Entries: []Entry{entry("five", "*/5 * * * *"), entry("hourly", "@hourly")},
		Run:     rec.Run, Clock: clock,
	})
	var want []run
	for i := 1; i <= 12; i++ {
		clock.WaitCalls(t, i)
		at := base.Add(time.Duration(i) * 5 * time.Minute)
		clock.Set(at)
		want = append(want, run{"five", ev("*/5 * * * *", at)})
		if i == 12 {
			want = append(want, run{"hourly", ev("@hourly", at)})
		}
		got := sortRuns(rec.waitN(t, len(want))) // entries due together run concurrently
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("after %s runs = %+v\nwant %+v", at, got, want)
		}
	}
}

func TestSchedulerDoesNotRunBeforeTick(t *testing.T) {
	clock := clocktest.NewFake(base)
	rec := &recorder{}
	newTestScheduler(t, SchedulerConfig{Entries: []Entry{entry("w", "* * * * *")}, Run: rec.Run, Clock: clock})
	clock.WaitCalls(t, 1)
	clock.Set(base.Add(time.Minute - time.Nanosecond))
	clock.Set(base.Add(time.Minute))
	got := rec.waitN(t, 1)
	if !reflect.DeepEqual(got, []run{{"w", ev("* * * * *", base.Add(time.Minute))}}) {
		t.Errorf("runs = %+v, want one at 00:01", got)
	}
}

func TestSchedulerRunsOnlyLatestWhenBehind(t *testing.T) {
	clock := clocktest.NewFake(base)
	rec := &recorder{}
	s := newTestScheduler(t, SchedulerConfig{Entries: []Entry{entry("w", "* * * * *")}, Run: rec.Run, Clock: clock})
	clock.WaitCalls(t, 1)
	clock.Set(base.Add(10*time.Minute + 30*time.Second))
	clock.WaitCalls(t, 2)
	clock.Set(base.Add(11 * time.Minute))
	got := rec.waitN(t, 2)
	want := []run{{"w", ev("* * * * *", base.Add(10*time.Minute))}, {"w", ev("* * * * *", base.Add(11*time.Minute))}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("runs = %+v, want the latest missed tick then the next", got)
	}
	if st := s.Stats(); st.Behind != 1 || st.Runs != 2 {
		t.Errorf("stats = %+v, want Behind 1, Runs 2", st)
	}
}

// memClaimer is a fleet-wide tick lease held in memory, shared by several
// schedulers as the central claimer is shared by replicas.
type memClaimer struct {
	mu    sync.Mutex
	taken map[string]bool
}

// memClaimer never hands a tick over.
func (m *memClaimer) Claim(_ context.Context, schedule string, tick time.Time) (Claim, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := schedule + "@" + tick.Format(time.RFC3339Nano)
	if m.taken[k] {
		return Claim{}, nil
	}
	m.taken[k] = true
	return Claim{Held: localTick{}}, nil
}

func TestSchedulersSharingAClaimerRunEachTickOnce(t *testing.T) {
	claimer := &memClaimer{taken: map[string]bool{}}
	rec := &recorder{}
	clocks := []*clocktest.Fake{clocktest.NewFake(base), clocktest.NewFake(base), clocktest.NewFake(base)}
	var scheds []*Scheduler
	for _, c := range clocks {
		scheds = append(scheds, newTestScheduler(t, SchedulerConfig{
			Entries: []Entry{entry("w", "* * * * *")}, Run: rec.Run, Clock: c, Claimer: claimer,
		}))
	}
	for i := 1; i <= 5; i++ {
		for _, c := range clocks {
			c.WaitCalls(t, i)
			c.Set(base.Add(time.Duration(i) * time.Minute))
		}
		rec.waitN(t, i)
	}
	for _, c := range clocks {
		c.WaitCalls(t, 6) // every replica has evaluated tick 5
	}
	wait.For(t, "every replica to settle its claims", func() bool {
		var due int64
		for _, s := range scheds {
			due += s.Stats().Due
		}
		return due == 15
	})
	got := rec.get()
	if len(got) != 5 {
		t.Fatalf("%d runs for 5 ticks across 3 replicas: %+v", len(got), got)
	}
	var lost int64
	for _, s := range scheds {
		lost += s.Stats().Lost
	}
	if lost != 10 {
		t.Errorf("Lost = %d across replicas, want 10", lost)
	}
}

type errClaimer struct{}

func (errClaimer) Claim(context.Context, string, time.Time) (Claim, error) {
	return Claim{}, errors.New("coordination store unreachable")
}

// TestSchedulerMissesATickWhoseClaimFailsPastTheWindow: a claim that
// keeps failing is retried until the entry's next tick is due; then the
// tick counts as missed, and it never ran.
func TestSchedulerMissesATickWhoseClaimFailsPastTheWindow(t *testing.T) {
	clock := clocktest.NewFake(base)
	rec := &recorder{}
	s := newTestScheduler(t, SchedulerConfig{Entries: []Entry{entry("w", "* * * * *")}, Run: rec.Run, Clock: clock, Claimer: errClaimer{}})
	clock.WaitCalls(t, 1)
	clock.Set(base.Add(time.Minute))
	wait.For(t, "the first claim to fail", func() bool { return s.Stats().ClaimErrors >= 1 })
	// The retries back off up to 5s; 70s of fake time ends the window.
	for range 40 {
		n := clock.Calls()
		clock.Advance(5 * time.Second)
		if s.Stats().Missed == 1 {
			break
		}
		clock.WaitCalls(t, n+1)
	}
	wait.For(t, "the tick to count as missed", func() bool { return s.Stats().Missed == 1 })
	if got := rec.get(); len(got) != 0 {
		t.Errorf("ran %+v despite every claim failing", got)
	}
}

// flakyClaimer fails its first n claims, as a store that is down and
// comes back, then wins every claim.
type flakyClaimer struct{ fails atomic.Int32 }

func (f *flakyClaimer) Claim(context.Context, string, time.Time) (Claim, error) {
	if f.fails.Add(-1) >= 0 {
		return Claim{}, errors.New("coordination store unreachable")
	}
	return Claim{Held: localTick{}}, nil
}

// TestSchedulerRetriesAFailedClaimWithinTheGraceWindow: a tick due while
// the claimer's store is down runs once, when it is back.
func TestSchedulerRetriesAFailedClaimWithinTheGraceWindow(t *testing.T) {
	clock := clocktest.NewFake(base)
	rec := &recorder{}
	c := &flakyClaimer{}
	c.fails.Store(3)
	s := newTestScheduler(t, SchedulerConfig{Entries: []Entry{entry("w", "* * * * *")}, Run: rec.Run, Clock: clock, Claimer: c})
	clock.WaitCalls(t, 1)
	clock.Set(base.Add(time.Minute))
	// Each poll moves fake time on by 1s: the retries (250ms, 500ms, 1s
	// apart) come due well inside the tick's 60s window.
	wait.For(t, "the tick to run after the store came back", func() bool {
		clock.Advance(time.Second)
		return len(rec.get()) == 1
	})
	if st := s.Stats(); st.ClaimErrors != 3 || st.LateClaims != 1 || st.Missed != 0 || st.Runs != 1 {
		t.Errorf("stats %+v; want 3 claim errors, 1 late claim, 0 missed, 1 run", st)
	}
	if got := rec.get(); !got[0].Event.ScheduledTime.Equal(base.Add(time.Minute)) {
		t.Errorf("ran %+v; want the tick of %v", got, base.Add(time.Minute))
	}
}

func TestSchedulerCountsRunErrorsAndPanics(t *testing.T) {
	clock := clocktest.NewFake(base)
	calls := 0
	var mu sync.Mutex
	s := newTestScheduler(t, SchedulerConfig{
		Entries: []Entry{entry("w", "* * * * *")}, Clock: clock,
		Run: func(context.Context, string, worker.ScheduledEvent) error {
			mu.Lock()
			defer mu.Unlock()
			calls++
			if calls == 1 {
				return errors.New("failed")
			}
			panic("boom")
		},
	})
	for i := 1; i <= 2; i++ {
		clock.WaitCalls(t, i)
		clock.Set(base.Add(time.Duration(i) * time.Minute))
	}
	wait.For(t, "two run errors", func() bool { return s.Stats().RunErrors == 2 })
}

func TestSchedulerDrainStopsClaiming(t *testing.T) {
	clock := clocktest.NewFake(base)
	rec := &recorder{}
	s := newTestScheduler(t, SchedulerConfig{Entries: []Entry{entry("w", "* * * * *")}, Run: rec.Run, Clock: clock})
	clock.WaitCalls(t, 1)
	s.Drain()
	if err := s.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	clock.Set(base.Add(time.Hour))
	if got, st := rec.get(), s.Stats(); len(got) != 0 || st.Due != 0 {
		t.Errorf("after drain: runs %+v, stats %+v; want none", got, st)
	}
}

func TestSchedulerStopWaitsForRuns(t *testing.T) {
	clock := clocktest.NewFake(base)
	entered, release := make(chan struct{}), make(chan struct{})
	s := newTestScheduler(t, SchedulerConfig{
		Entries: []Entry{entry("w", "* * * * *")}, Clock: clock,
		Run: func(context.Context, string, worker.ScheduledEvent) error {
			close(entered)
			<-release
			return nil
		},
	})
	clock.WaitCalls(t, 1)
	clock.Set(base.Add(time.Minute))
	<-entered
	stopped := make(chan error, 1)
	go func() { stopped <- s.Stop(context.Background()) }()
	select {
	case err := <-stopped:
		t.Fatalf("Stop returned (%v) while a run was in progress", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if err := <-stopped; err != nil {
		t.Errorf("Stop = %v", err)
	}
}

func TestSchedulerStopIsBounded(t *testing.T) {
	clock := clocktest.NewFake(base)
	entered := make(chan struct{})
	cancelled := make(chan error, 1)
	s, err := NewScheduler(SchedulerConfig{
		Entries: []Entry{entry("w", "* * * * *")}, Clock: clock, Logger: slog.New(slog.DiscardHandler),
		Run: func(ctx context.Context, _ string, _ worker.ScheduledEvent) error {
			close(entered)
			<-ctx.Done()
			cancelled <- ctx.Err()
			return ctx.Err()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	clock.WaitCalls(t, 1)
	clock.Set(base.Add(time.Minute))
	<-entered
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := s.Stop(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Stop = %v, want DeadlineExceeded", err)
	}
	select {
	case err := <-cancelled:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("run context ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("run context not cancelled when Stop gave up")
	}
}

func TestNewSchedulerValidates(t *testing.T) {
	if _, err := NewScheduler(SchedulerConfig{}); !errors.Is(err, ErrNoRun) {
		t.Errorf("no Run: err = %v, want ErrNoRun", err)
	}
	noop := func(context.Context, string, worker.ScheduledEvent) error { return nil }
	dup := []Entry{entry("w", "* * * * *"), entry("w", "* * * * *")}
	if _, err := NewScheduler(SchedulerConfig{Entries: dup, Run: noop}); !errors.Is(err, ErrDuplicateEntry) {
		t.Errorf("duplicate: err = %v, want ErrDuplicateEntry", err)
	}
	if _, err := NewScheduler(SchedulerConfig{Entries: []Entry{{Worker: "w"}}, Run: noop}); !errors.Is(err, ErrSchedule) {
		t.Errorf("zero schedule: err = %v, want ErrSchedule", err)
	}
	s, err := NewScheduler(SchedulerConfig{Run: noop, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); !errors.Is(err, ErrStarted) {
		t.Errorf("second Start = %v, want ErrStarted", err)
	}
	if err := s.Stop(context.Background()); err != nil {
		t.Errorf("Stop with no entries = %v", err)
	}
}

// TestSchedulerRealClockSecondsForm runs the seconds form on the system clock.
func TestSchedulerRealClockSecondsForm(t *testing.T) {
	rec := &recorder{}
	newTestScheduler(t, SchedulerConfig{Entries: []Entry{entry("w", "* * * * * *")}, Run: rec.Run})
	got := rec.waitN(t, 2)
	for _, r := range got {
		if r.Event.ScheduledTime.Nanosecond() != 0 || r.Event.ScheduledTime.Location() != time.UTC {
			t.Errorf("tick %s is not a whole UTC second", r.Event.ScheduledTime)
		}
	}
	// 1s apart, unless a loaded machine made the scheduler fall behind.
	if d := got[1].Event.ScheduledTime.Sub(got[0].Event.ScheduledTime); d < time.Second || d%time.Second != 0 {
		t.Errorf("consecutive ticks %s apart, want a whole number of seconds", d)
	}
}
