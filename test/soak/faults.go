package soak

import (
	"fmt"
	"github.com/dwk/fleet/test/lbclient"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/partition"
	"github.com/dwk/fleet/test/procs"
)

// Injector injects faults into a fleet, one at a time, from the test's
// goroutine (a restart that fails fails the test). Its sleeps are fault
// pacing — how long a process stays dead or stopped — never
// synchronisation.
type Injector struct {
	t testing.TB
	f *fleettest.Fleet
	// net is f on a network of namespaces, with libSQL behind proxies;
	// nil when network namespaces are not available (no NetFaults).
	net   *partition.Fleet
	doors *lbclient.Doors
	tl    *Timeline
	rng   *rand.Rand
	ttl   time.Duration
	logf  func(format string, args ...any)
	// closed runs each fault's closed-loop client.
	closed *closedClients
	// kind is the fault being injected.
	kind Fault
	// retired holds the replica processes that were killed or stopped,
	// whose output the checks still read.
	retired []*procs.Proc
}

// Logs returns the output of every replica process the fleet ran.
func (in *Injector) Logs() []string {
	var out []string
	for _, p := range in.retired {
		out = append(out, p.Output())
	}
	for _, r := range in.f.Replicas {
		out = append(out, r.Proc.Output())
	}
	return out
}

// Inject runs one fault of kind and returns when it is over (the affected
// process is back), not when its effects are.
func (in *Injector) Inject(kind Fault) {
	in.t.Helper()
	if in.net == nil && slices.Contains(NetFaults, kind) {
		in.t.Fatalf("fault %q needs the fleet in network namespaces", kind)
	}
	in.kind = kind
	if slices.Contains([]Fault{Rolling, LibSQL, S3Outage, SlowStore}, kind) {
		in.closed.start(kind, -1, "", in.publicURLs(), in.doors.Pick)
	}
	defer in.closed.end()
	switch kind {
	case Kill:
		in.kill()
	case Pause:
		in.pause()
	case Rolling:
		in.rolling()
	case LibSQL:
		in.libsql()
	case S3Outage:
		in.s3()
	case CutStore:
		in.cutStore()
	case CutPeers:
		in.cutPeers()
	case SlowStore:
		in.slowStore()
	default:
		in.t.Fatalf("unknown fault %q", kind)
	}
}

// victim picks the replica to fault and starts the fault's closed-loop
// client through another replica's front door.
func (in *Injector) victim() (int, *fleettest.Replica) {
	i := in.rng.IntN(len(in.f.Replicas))
	in.closed.start(in.kind, i, in.f.Replicas[i].Member, in.publicURLs(), in.doors.Pick)
	return i, in.f.Replicas[i]
}

func (in *Injector) publicURLs() []string {
	out := make([]string, len(in.f.Replicas))
	for i, r := range in.f.Replicas {
		out[i] = r.Public
	}
	return out
}

// kill sends SIGKILL to a replica, leaves it dead for 1–3s, and starts it
// again.
func (in *Injector) kill() {
	i, r := in.victim()
	down := time.Second + time.Duration(in.rng.Int64N(int64(2*time.Second)))
	detail := fmt.Sprintf("kill -9 %s, down %v", r.Member, down.Round(time.Millisecond))
	in.logf("fault: %s", detail)
	end := in.tl.Begin(Kill, detail)
	defer end()
	r.Kill()
	in.retired = append(in.retired, r.Proc)
	time.Sleep(down)
	r.Start()
	in.doors.Set(i, r.Public)
}

// pause stops a replica with SIGSTOP for 1.5–2 lease TTLs, so its leases
// expire and others take its objects, then resumes it: its writes must
// be fenced.
func (in *Injector) pause() {
	_, r := in.victim()
	d := in.ttl*3/2 + time.Duration(in.rng.Int64N(int64(in.ttl/2)))
	detail := fmt.Sprintf("SIGSTOP %s for %v (lease TTL %v)", r.Member, d.Round(time.Millisecond), in.ttl)
	in.logf("fault: %s", detail)
	end := in.tl.Begin(Pause, detail)
	defer end()
	r.Pause()
	time.Sleep(d)
	r.Resume()
}

// rolling restarts every replica in turn, gracefully (SIGTERM, wait for
// the drain, start), as a deploy does: no request may fail.
func (in *Injector) rolling() {
	detail := fmt.Sprintf("rolling restart of %d replicas", len(in.f.Replicas))
	in.logf("fault: %s", detail)
	end := in.tl.Begin(Rolling, detail)
	defer end()
	for i, r := range in.f.Replicas {
		r.Stop()
		in.retired = append(in.retired, r.Proc)
		r.Start()
		in.doors.Set(i, r.Public)
		// Let the load balancer's health check see the new replica before
		// the next one drains, as a deploy's health gate does.
		time.Sleep(time.Second)
	}
}

// libsql restarts the libSQL server, down for 1–3s.
func (in *Injector) libsql() {
	down := time.Second + time.Duration(in.rng.Int64N(int64(2*time.Second)))
	detail := fmt.Sprintf("libSQL restart, down %v", down.Round(time.Millisecond))
	in.logf("fault: %s", detail)
	end := in.tl.Begin(LibSQL, detail)
	defer end()
	in.f.LibSQL.Restart(down)
}

// s3 makes the S3 service refuse connections for 2–5s.
func (in *Injector) s3() {
	down := 2*time.Second + time.Duration(in.rng.Int64N(int64(3*time.Second)))
	detail := fmt.Sprintf("S3 unavailable for %v", down.Round(time.Millisecond))
	in.logf("fault: %s", detail)
	end := in.tl.Begin(S3Outage, detail)
	defer end()
	if err := in.f.S3.Stop(); err != nil {
		in.t.Fatal(err)
	}
	time.Sleep(down)
	if err := in.f.S3.Restart(); err != nil {
		in.t.Fatal(err)
	}
}
