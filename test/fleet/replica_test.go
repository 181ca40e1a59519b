package fleet

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/refworkers/counter"
	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/wait"
)

// The tests named TestReplica* check the local replicas of central
// objects (issue 15) across real processes. They decide who holds an
// object: the holder hands it back through its admin API
// (ReleaseObject), and a request sent to the next replica's internal
// listener as a last-hop forward (ObjectRequest) makes that replica take
// it, or fail if another one still holds it.

// counterValue is the answer of the counter's get and increment routes.
type counterValue struct{ Value int64 }

// at sends method path to the counter object name, served by replica r
// itself, and decodes the answer into out. It fails when another replica
// holds the object.
func at(r *fleettest.Replica, method, name, path string, out any) error {
	req, err := r.ObjectRequest(method, counter.Class, name, path, nil)
	if err != nil {
		return err
	}
	_, member, err := sendVia(r.Fleet().InternalClient(), req, out)
	if err != nil {
		return err
	}
	if member != r.Member {
		return fmt.Errorf("%s %s: served by %q, want %s", method, path, member, r.Member)
	}
	return nil
}

// move hands counter name from `from` (nil when no replica holds it) to
// `to`, and returns the value `to` reads on arrival.
func move(t *testing.T, from, to *fleettest.Replica, name string) int64 {
	t.Helper()
	if from != nil {
		released, err := from.ReleaseObject(counter.Class, name)
		if err != nil {
			t.Fatal(err)
		}
		if !released {
			t.Fatalf("%s says it did not run %q", from.Member, name)
		}
	}
	var got counterValue
	if err := at(to, "GET", name, "/counter/"+name, &got); err != nil {
		t.Fatalf("%s takes %q: %v", to.Member, name, err)
	}
	return got.Value
}

// increment adds 1 to counter name on r, which must hold it, and returns
// the new value.
func increment(t *testing.T, r *fleettest.Replica, name string) int64 {
	t.Helper()
	var got counterValue
	if err := at(r, "POST", name, "/counter/"+name+"/increment", &got); err != nil {
		t.Fatal(err)
	}
	return got.Value
}

// TestReplicaMoves moves objects between the replicas of one fleet,
// which keep their copies in directories the test can look into.
func TestReplicaMoves(t *testing.T) {
	cacheDirs := make([]string, 3)
	for i := range cacheDirs {
		cacheDirs[i] = t.TempDir()
	}
	f := fleettest.Start(t, fleettest.Options{Edit: func(i int, c *config.Config) {
		c.Storage.ObjectCache = &config.ObjectCache{Dir: cacheDirs[i]}
	}})
	t.Run("BackAndForth", func(t *testing.T) { backAndForth(t, f) })
	t.Run("StaleReturn", func(t *testing.T) { staleReturn(t, f, cacheDirs) })
	t.Run("NonDeterministicSQL", func(t *testing.T) { nonDeterministicSQL(t, f) })
}

// backAndForth moves one object between three replicas 50 times, with a
// write on each hop: each holder reads every write acknowledged before it
// took the object, whether its copy is missing or some versions behind.
func backAndForth(t *testing.T, f *fleettest.Fleet) {
	const name, hops = "hops", 50
	rng := rand.New(rand.NewPCG(15, 50)) // fixed: the same route every run
	held := map[string]int{}
	var holder *fleettest.Replica
	for hop := range hops {
		next := f.Replicas[rng.IntN(len(f.Replicas))]
		for next == holder {
			next = f.Replicas[rng.IntN(len(f.Replicas))]
		}
		if got, want := move(t, holder, next, name), int64(hop); got != want {
			from := "nobody"
			if holder != nil {
				from = holder.Member
			}
			t.Fatalf("hop %d (%s → %s): the new holder reads %d, want %d acknowledged writes", hop, from, next.Member, got, want)
		}
		if got, want := increment(t, next, name), int64(hop+1); got != want {
			t.Fatalf("hop %d: increment on %s = %d, want %d", hop, next.Member, got, want)
		}
		holder = next
		held[holder.Member]++
	}
	for _, r := range f.Replicas {
		if held[r.Member] < hops/5 {
			t.Fatalf("%s held the object %d times of %d: the route does not exercise it", r.Member, held[r.Member], hops)
		}
	}
	t.Logf("%d hops, holds per replica %v", hops, held)
}

// staleReturn: A holds an object and writes, B takes it over and writes
// more, then A takes it back. A kept its copy (closed cleanly, so
// trusted), which is now behind the primary: A must resync and serve B's
// writes, never its own old copy.
func staleReturn(t *testing.T, f *fleettest.Fleet, cacheDirs []string) {
	a, b := f.Replicas[0], f.Replicas[1]
	const name = "returning"
	if got := move(t, nil, a, name); got != 0 {
		t.Fatalf("new counter reads %d", got)
	}
	for range 3 {
		increment(t, a, name)
	}
	kept := keptCopies(cacheDirs[0])
	if got := move(t, a, b, name); got != 3 {
		t.Fatalf("B reads %d after A's 3 writes, want 3", got)
	}
	// A's copy stays on its disk with its meta file: A will trust it and
	// only fetch what changed. Without it this test would check a full
	// sync, not the return of a stale copy.
	if now := keptCopies(cacheDirs[0]); len(now) != len(kept)+1 {
		t.Fatalf("A kept copies %v before handing the object over and %v after: want one more", kept, now)
	}
	if released, err := a.ReleaseObject(counter.Class, name); err != nil || released {
		t.Fatalf("A releases the object it handed over: %v, %v; want false", released, err)
	}
	for range 5 {
		increment(t, b, name)
	}
	if got := move(t, b, a, name); got != 8 {
		t.Fatalf("A back from its stale copy reads %d, want 8 (B's writes included)", got)
	}
	if got := increment(t, a, name); got != 9 {
		t.Fatalf("A's first write after its return = %d, want 9", got)
	}
	if got := move(t, a, f.Replicas[2], name); got != 9 {
		t.Fatalf("C reads %d after A's return, want 9", got)
	}
}

// noiseRow is a row of the counter's noise table (GET /counter/{name}/rows).
type noiseRow struct {
	ID   int64  `json:"id"`
	Rnd  int64  `json:"rnd"`
	At   string `json:"at"`
	Blob string `json:"blob"`
	Ref  *int64 `json:"ref"`
}

func (r noiseRow) String() string {
	ref := "null"
	if r.Ref != nil {
		ref = fmt.Sprint(*r.Ref)
	}
	return fmt.Sprintf("{id %d rnd %d at %q blob %s ref %s}", r.ID, r.Rnd, r.At, r.Blob, ref)
}

func (r noiseRow) equal(o noiseRow) bool {
	sameRef := (r.Ref == nil) == (o.Ref == nil) && (r.Ref == nil || *r.Ref == *o.Ref)
	return r.ID == o.ID && r.Rnd == o.Rnd && r.At == o.At && r.Blob == o.Blob && sameRef
}

// rowsOn reads every noise row of counter name on r.
func rowsOn(t *testing.T, r *fleettest.Replica, name string) []noiseRow {
	t.Helper()
	var got struct{ Rows []noiseRow }
	if err := at(r, "GET", name, "/counter/"+name+"/rows", &got); err != nil {
		t.Fatal(err)
	}
	return got.Rows
}

// sameRows fails unless the rows b read equal, row by row, those a read.
func sameRows(t *testing.T, what string, a, b []noiseRow) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: %d rows, want %d\ngot  %v\nwant %v", what, len(b), len(a), b, a)
	}
	for i := range a {
		if !a[i].equal(b[i]) {
			t.Errorf("%s: row %d = %v, want %v", what, i, b[i], a[i])
		}
	}
}

// keptCopies lists the meta files of the copies a replica closed cleanly
// and keeps in its cache directory dir.
func keptCopies(dir string) []string {
	metas, _ := filepath.Glob(filepath.Join(dir, "*.meta"))
	return metas
}

// nonDeterministicSQL writes rows whose values SQLite makes up
// (random(), datetime('now'), randomblob(), AUTOINCREMENT,
// last_insert_rowid()) on one holder, then reads them on a holder that
// never held the object, whose copy therefore comes from the primary
// whole: the rows must be equal, byte for byte. Then the other way round,
// through an incremental resync.
func nonDeterministicSQL(t *testing.T, f *fleettest.Fleet) {
	a, b := f.Replicas[0], f.Replicas[1]
	const name = "noisy"
	move(t, nil, a, name)
	for range 5 {
		if err := at(a, "POST", name, "/counter/"+name+"/noise", nil); err != nil {
			t.Fatal(err)
		}
	}
	onA := rowsOn(t, a, name)
	if len(onA) != 10 {
		t.Fatalf("A holds %d rows after 5 noise calls, want 10: %v", len(onA), onA)
	}
	blobs := map[string]bool{}
	for i, r := range onA {
		blobs[r.Blob] = true
		if i%2 == 1 && (r.Ref == nil || *r.Ref != onA[i-1].ID) {
			t.Fatalf("row %v does not refer to the row before it (%d)", r, onA[i-1].ID)
		}
	}
	if len(blobs) != len(onA) {
		t.Fatalf("random blobs repeat: %v", onA)
	}
	move(t, a, b, name)
	sameRows(t, "fresh holder B (full sync)", onA, rowsOn(t, b, name))

	for range 3 {
		if err := at(b, "POST", name, "/counter/"+name+"/noise", nil); err != nil {
			t.Fatal(err)
		}
	}
	onB := rowsOn(t, b, name)
	if len(onB) != 16 {
		t.Fatalf("B holds %d rows after 3 more noise calls, want 16", len(onB))
	}
	move(t, b, a, name)
	sameRows(t, "returning holder A (incremental sync)", onB, rowsOn(t, a, name))
}

// ledger is the clients' view of one counter under concurrent increments
// and reads, sent through the front doors of entry replicas.
type ledger struct {
	name    string
	entries []*fleettest.Replica
	victim  string // member the test kills or pauses

	attempted atomic.Int64
	acked     atomic.Int64
	inflight  atomic.Int64
	// ackedElsewhere counts acknowledged increments that a replica other
	// than the victim served.
	ackedElsewhere atomic.Int64

	mu         sync.Mutex
	values     map[int64]string // value an acknowledged increment returned → serving member
	reads      int
	violations []string
	lastMember string // member that served the latest acknowledged increment
}

func (l *ledger) violate(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.violations = append(l.violations, fmt.Sprintf(format, args...))
}

// request sends one request through entry's front door, bounded by
// timeout.
func (l *ledger) request(method string, entry *fleettest.Replica, path string, timeout time.Duration, out any) (string, error) {
	l.inflight.Add(1)
	defer l.inflight.Add(-1)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, entry.Public+path, nil)
	if err != nil {
		return "", err
	}
	_, member, err := send(req, out)
	return member, err
}

// increment sends one increment. An acknowledged increment must see every
// increment acknowledged before it was sent, and no other acknowledged
// increment may return the same value.
func (l *ledger) increment(entry *fleettest.Replica, timeout time.Duration) {
	l.attempted.Add(1)
	before := l.acked.Load()
	var got counterValue
	member, err := l.request("POST", entry, "/counter/"+l.name+"/increment", timeout, &got)
	if err != nil {
		return
	}
	l.acked.Add(1)
	if member != l.victim {
		l.ackedElsewhere.Add(1)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lastMember = member
	if got.Value <= before {
		l.violations = append(l.violations, fmt.Sprintf("increment served by %s returned %d, but %d increments were acknowledged before it was sent: a stale copy", member, got.Value, before))
	}
	if other, dup := l.values[got.Value]; dup {
		l.violations = append(l.violations, fmt.Sprintf("two acknowledged increments returned %d (served by %s and %s): one was lost", got.Value, other, member))
	}
	l.values[got.Value] = member
}

// read sends one read, which must see every increment acknowledged
// before it was sent.
func (l *ledger) read(entry *fleettest.Replica, timeout time.Duration) {
	before := l.acked.Load()
	var got counterValue
	member, err := l.request("GET", entry, "/counter/"+l.name, timeout, &got)
	if err != nil {
		return
	}
	l.mu.Lock()
	l.reads++
	l.mu.Unlock()
	if got.Value < before {
		l.violate("read served by %s returned %d, but %d increments were acknowledged before it was sent: a stale copy", member, got.Value, before)
	}
}

// run starts clients that send increments (writers goroutines) and reads
// (one goroutine) round robin through the entry replicas, each request
// bounded by timeout, until stop is closed; wg is done when every request
// has come back.
func (l *ledger) run(wg *sync.WaitGroup, writers int, timeout time.Duration, stop <-chan struct{}) {
	loop := func(k int, fn func(*fleettest.Replica, time.Duration)) {
		defer wg.Done()
		for i := k; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			fn(l.entries[i%len(l.entries)], timeout)
		}
	}
	for k := range writers {
		wg.Add(1)
		go loop(k, l.increment)
	}
	wg.Add(1)
	go loop(0, l.read)
}

// TestReplicaKillAndPause kills (SIGKILL) and then pauses (SIGSTOP) the
// holder of a counter while increments are in flight through the other
// replicas' front doors. Every acknowledged increment is in the final
// value, which the new holder serves; nothing the clients were not asked
// for is in it (final <= attempted); and no read or increment ever
// reflects a copy older than what was acknowledged before it was sent.
func TestReplicaKillAndPause(t *testing.T) {
	ttl := 2 * time.Second
	f := fleettest.Start(t, fleettest.Options{LeaseTTL: ttl})
	t.Run("Kill", func(t *testing.T) {
		chaos(t, "killed", ttl, f.Replicas[0], f.Replicas[1:], func(victim *fleettest.Replica) func() {
			victim.Kill()
			return nil
		})
	})
	t.Run("Pause", func(t *testing.T) {
		f.Replicas[0].Start() // killed above
		entries := []*fleettest.Replica{f.Replicas[0], f.Replicas[2]}
		chaos(t, "paused", ttl, f.Replicas[1], entries, func(victim *fleettest.Replica) func() {
			victim.Pause()
			return victim.Resume
		})
	})
}

// chaos places counter name on victim, runs clients through entries,
// strikes victim mid-writes (strike returns how to undo it, or nil), and
// checks the ledger.
func chaos(t *testing.T, name string, ttl time.Duration, victim *fleettest.Replica, entries []*fleettest.Replica, strike func(*fleettest.Replica) func()) {
	move(t, nil, victim, name)
	l := &ledger{name: name, entries: entries, victim: victim.Member, values: map[int64]string{}}
	var clients sync.WaitGroup
	stop := make(chan struct{})
	// The first clients' requests may hang on a paused holder: they wait
	// long enough to come back after the resume.
	l.run(&clients, 4, 20*time.Second, stop)
	stopped := false
	defer func() {
		if !stopped {
			close(stop)
			clients.Wait()
		}
	}()
	wait.Within(t, 20*time.Second, "increments acknowledged by the holder", func() bool { return l.acked.Load() >= 20 })
	if n := l.ackedElsewhere.Load(); n != 0 {
		t.Fatalf("%d increments served by a replica other than the holder %s before the strike", n, victim.Member)
	}
	undo := strike(victim)
	struck := time.Now()
	atStrike, heldUp := l.acked.Load(), l.inflight.Load()
	// Requests held up by a paused holder wait for its resume; fresh
	// clients keep the writes coming meanwhile. Theirs give up after two
	// lease TTLs: one sent to the paused holder before its lease ran out
	// would hang, so they try again.
	l.run(&clients, 4, 2*ttl, stop)
	wait.Within(t, 30*time.Second, "another replica acknowledges increments", func() bool { return l.ackedElsewhere.Load() >= 20 })
	took := time.Since(struck)
	if undo != nil {
		undo()
		// The resumed holder's requests come back; let the new holder
		// take more writes while they do.
		resumed := l.acked.Load()
		wait.Within(t, 30*time.Second, "increments after the resume", func() bool { return l.acked.Load() >= resumed+10 })
	}
	close(stop)
	clients.Wait()
	stopped = true

	var final counterValue
	var member string
	wait.Within(t, 20*time.Second, "the final value is served", func() bool {
		var err error
		member, err = l.request("GET", entries[0], "/counter/"+name, 10*time.Second, &final)
		return err == nil
	})
	l.mu.Lock()
	defer l.mu.Unlock()
	t.Logf("%s: %d attempted, %d acknowledged (%d before the strike, %d requests in flight at it), final %d, %d reads; writes moved to %s within %v",
		victim.Member, l.attempted.Load(), l.acked.Load(), atStrike, heldUp, final.Value, l.reads, l.lastMember, took.Round(time.Millisecond))
	for _, v := range l.violations {
		t.Error(v)
	}
	acked, attempted := l.acked.Load(), l.attempted.Load()
	if final.Value < acked {
		t.Errorf("final value %d < %d acknowledged increments: an acknowledged write was lost", final.Value, acked)
	}
	if final.Value > attempted {
		t.Errorf("final value %d > %d increments sent: a write was applied twice", final.Value, attempted)
	}
	if top := slices.Max(slices.Collect(maps.Keys(l.values))); top > final.Value {
		t.Errorf("an acknowledged increment returned %d, above the final value %d", top, final.Value)
	}
	if member == victim.Member || member != l.lastMember {
		t.Errorf("final value served by %s, want the new holder %s", member, l.lastMember)
	}
	if l.reads == 0 {
		t.Error("no read came back: the stale-read check checked nothing")
	}
}
