package soak

import (
	"github.com/dwk/fleet/test/lbclient"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/test/fleettest"
)

// Options shape a soak run.
type Options struct {
	// Duration is how long the load runs. Faults start after a short
	// warm-up; the load continues until the last fault's effects are over
	// even past Duration. Default: 60s.
	Duration time.Duration
	// Seed makes the fault schedule and victims reproducible. Default: 1.
	Seed uint64
	// Replicas is the fleet size, 3 to 5. Default: 3.
	Replicas int
	// Strict makes any request that fails with no fault or only a graceful
	// rolling restart active a violation.
	Strict bool
	// Random picks faults at random after covering every kind once;
	// otherwise each kind is injected once, in the order of Faults. The
	// kinds of NetFaults run only where network namespaces are permitted.
	Random bool
	// LeaseTTL is the object lease TTL. Default: 2s.
	LeaseTTL time.Duration
	// Load shapes the clients.
	Load LoadOptions
	// Out, when set, is the file the run's Result is written to, whether
	// it passed or not (scripts/soak.sh: bench/soak-<duration>-<seed>.json).
	// Default: "" (none; the short run in make test keeps no file).
	Out string
}

func (o *Options) applyDefaults() {
	if o.Duration == 0 {
		o.Duration = 60 * time.Second
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Replicas == 0 {
		o.Replicas = 3
	}
	if o.LeaseTTL == 0 {
		o.LeaseTTL = 2 * time.Second
	}
	o.Load.applyDefaults()
}

// Run starts a fleet, runs the load and the faults, checks the invariants,
// logs the report, and fails t on any violation.
func Run(t testing.TB, o Options) Outcome {
	t.Helper()
	o.applyDefaults()
	if o.Replicas < 3 || o.Replicas > 5 {
		t.Fatalf("soak: %d replicas, want 3 to 5", o.Replicas)
	}
	f, nf, kinds := startFleet(t, fleettest.Options{
		Replicas: o.Replicas, LeaseTTL: o.LeaseTTL, DrainTimeout: 10 * time.Second,
		Edit: func(_ int, c *config.Config) {
			c.Workers[0].Crons = []string{"* * * * * *"} // every second (6-field form)
		},
	})
	urls := make([]string, len(f.Replicas))
	for i, r := range f.Replicas {
		urls[i] = r.Public
	}
	doors := lbclient.NewDoors(urls)
	// Effects outlast a fault by up to one lease TTL (a dead holder's
	// lease) plus a renewal and a health check.
	tl := &Timeline{Tail: 2*o.LeaseTTL + time.Second}
	l := NewLedger(tl)
	ld := &Load{doors: doors, l: l, o: o.Load, seed: o.Seed}
	rng := rand.New(rand.NewPCG(o.Seed, 0x50a4))
	in := &Injector{t: t, f: f, net: nf, doors: doors, tl: tl, rng: rng, ttl: o.LeaseTTL, logf: t.Logf,
		closed: &closedClients{l: l, tail: tl.Tail}}

	stop := make(chan struct{})
	watchDone, loadDone := make(chan struct{}), make(chan struct{})
	go func() { doors.Watch(stop); close(watchDone) }()
	go func() { ld.Run(stop); close(loadDone) }()
	// The load and the watcher end before the fleet's cleanup kills it.
	stopped := false
	halt := func() {
		if !stopped {
			stopped = true
			close(stop)
			<-loadDone
			<-watchDone
		}
	}
	defer halt()

	start := time.Now()
	ticksFrom := start.Unix() + 3
	// Pacing: a quiet gap between faults lets the fleet settle, so each
	// failure is attributed to one fault.
	gap := tl.Tail + time.Second
	time.Sleep(3 * time.Second)
	for i, kind := range schedule(o, rng, kinds) {
		if i >= len(kinds) && time.Since(start)+gap+20*time.Second > o.Duration {
			break
		}
		in.Inject(kind)
		time.Sleep(gap)
	}
	if rest := o.Duration - time.Since(start); rest > 0 {
		time.Sleep(rest)
	}
	halt()
	in.closed.wait()
	ticksTo := time.Now().Unix() - 2
	t.Logf("load ran %v; checking invariants", time.Since(start).Round(time.Second))
	loadRan := time.Since(start)
	out := Verify(doors, l, tl, ticksFrom, ticksTo, in.Logs(), o.Strict, t.Logf)
	t.Logf("soak report (seed %d, %d replicas, lease TTL %v):\n%s", o.Seed, o.Replicas, o.LeaseTTL, Report(start, l, tl, out, ld))
	if o.Out != "" {
		if err := WriteResult(o.Out, result(o, kinds, start, loadRan, l, tl, out, ld)); err != nil {
			t.Error(err)
		} else {
			t.Logf("soak result written to %s", o.Out)
		}
	}
	if len(out.Violations) > 0 || ld.R2Lost.Load() > 0 {
		t.Errorf("soak: %d invariant violations, %d R2 reads lost", len(out.Violations), ld.R2Lost.Load())
	}
	return out
}

// schedule returns the faults to inject in order: each of kinds once
// (shuffled when Random), then, when Random, an endless supply of random
// kinds (Run stops taking them when time runs out).
func schedule(o Options, rng *rand.Rand, kinds []Fault) []Fault {
	s := append([]Fault(nil), kinds...)
	if !o.Random {
		return s
	}
	rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	// A fault takes at least a few seconds plus the gap: this many cannot
	// fit in Duration.
	for range int(o.Duration / time.Second) {
		s = append(s, kinds[rng.IntN(len(kinds))])
	}
	return s
}
