package scale

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/lease"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/test/libsqlserver"
)

// Members is how many members share the objects at the points of every
// object count.
const Members = 3

// MoreMembers is how many members share the largest object count at one
// more point, which shows the cost as members grow.
const MoreMembers = 12

// defaultObjects are the object counts measured when DWK_SCALE_OBJECTS
// (comma-separated) does not name others.
var defaultObjects = []int{1_000, 10_000, 100_000}

// idleWindow is how long the idle coordination cost is measured.
const idleWindow = 10 * time.Second

// BenchmarkScale holds objects across simulated members, each a real
// lease manager with its own coordination client against one real `dwk
// libsql`, at default lease settings: Members members for each object
// count, and MoreMembers for the largest. It reports, per point: the
// lease acquisition latency of new objects (p50 and p99, 16 at once), the
// idle cost once they are held (coordination round trips per second per
// member, and the libSQL server's CPU as a share of one core), the share
// of the leases still held after the idle window (a member whose
// heartbeats fall behind loses its leases), and the failover times: a
// member whose link to the libSQL server stalls (every request hangs, as
// under SIGSTOP) and then one whose link is cut (every request fails, as
// after kill -9; nothing is released either way) each have an object
// taken by another member, which retries every 10 ms.
func BenchmarkScale(b *testing.B) {
	counts := objectCounts(b)
	for _, n := range counts {
		b.Run(fmt.Sprintf("members=%d/objects=%d", Members, n), func(b *testing.B) {
			for range b.N {
				runPoint(b, Members, n)
			}
		})
	}
	most := slices.Max(counts)
	b.Run(fmt.Sprintf("members=%d/objects=%d", MoreMembers, most), func(b *testing.B) {
		for range b.N {
			runPoint(b, MoreMembers, most)
		}
	})
}

func objectCounts(b *testing.B) []int {
	s := os.Getenv("DWK_SCALE_OBJECTS")
	if s == "" {
		return defaultObjects
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < Members {
			b.Fatalf("DWK_SCALE_OBJECTS=%q: want comma-separated counts of at least %d", s, Members)
		}
		out = append(out, n)
	}
	return out
}

// member is a simulated replica: a lease manager on a coordination
// client of its own, whose link can be cut.
type member struct {
	m    *lease.Manager
	c    *hranaclient.Client
	link *cuttable
}

func runPoint(b *testing.B, nMembers, objects int) {
	ctx := context.Background()
	srv := libsqlserver.Start(b)
	if srv.External {
		b.Fatal("the scale harness measures its own libSQL server's CPU: unset DWK_TEST_LIBSQL_URL")
	}
	ns := libsqlserver.Namespace("scale")
	admin, err := libsqladmin.New(libsqladmin.Config{URL: srv.AdminURL, AdminKey: srv.AdminKey})
	if err != nil {
		b.Fatal(err)
	}
	if err := admin.Create(ctx, ns); err != nil {
		b.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	members := make([]*member, nMembers)
	for i := range members {
		link := &cuttable{base: http.DefaultTransport}
		c, err := hranaclient.New(hranaclient.Config{URL: srv.URL, AuthToken: srv.AuthToken, Namespace: ns, HTTPClient: &http.Client{Transport: link}})
		if err != nil {
			b.Fatal(err)
		}
		st, err := coord.Open(ctx, c, coord.Options{Logger: quiet})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { closing(func(ctx context.Context) { st.Close(ctx) }) })
		name := fmt.Sprintf("m%d", i)
		m := lease.New(lease.Config{Coord: st, Member: name, Addr: name + ".internal:9000", Logger: quiet})
		if err := m.Open(ctx); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { closing(func(ctx context.Context) { m.Close(ctx) }) })
		members[i] = &member{m: m, c: c, link: link}
	}

	// Open: every object's lease, 16 acquisitions at once.
	lat := make([]time.Duration, objects)
	var next atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	start := time.Now()
	for range 16 {
		g.Go(func() error {
			for {
				i := int(next.Add(1) - 1)
				if i >= objects {
					return nil
				}
				t0 := time.Now()
				if _, err := members[i%nMembers].m.Acquire(gctx, "Scale", strconv.Itoa(i)); err != nil {
					return fmt.Errorf("acquire object %d: %w", i, err)
				}
				lat[i] = time.Since(t0)
			}
		})
	}
	if err := g.Wait(); err != nil {
		b.Fatal(err)
	}
	opened := time.Since(start)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })

	// Idle: what holding them costs.
	time.Sleep(time.Second) // past the acquisitions' own round trips
	rt0 := roundTrips(members)
	cpu0, err := cpuTime(srv.PID())
	if err != nil {
		b.Fatal(err)
	}
	time.Sleep(idleWindow)
	rt := float64(roundTrips(members)-rt0) / idleWindow.Seconds() / float64(nMembers)
	cpu1, err := cpuTime(srv.PID())
	if err != nil {
		b.Fatal(err)
	}
	cpu := (cpu1 - cpu0).Seconds() / idleWindow.Seconds() * 100
	// A member whose heartbeats fall behind loses its leases: the share
	// still held says whether the members keep up.
	held := 0
	for _, mb := range members {
		held += mb.m.Count()
	}
	kept := float64(held) / float64(objects) * 100

	// Failover: member 2's link stalls, and member 1 takes its object 2;
	// then member 0's link is cut, and member 1 takes its object 0.
	members[2].link.stall()
	stopped := takeOver(b, members[1].m, "2")
	members[0].link.cut.Store(true)
	killed := takeOver(b, members[1].m, "0")

	b.Logf("%d members, %d objects: opened in %v (p50 %v, p99 %v); idle %.1f round trips/s per member, libSQL %.1f%% of a core, %.1f%% of the leases still held; failover %v after a stall, %v after a cut",
		nMembers, objects, opened.Round(time.Millisecond), lat[len(lat)/2], lat[len(lat)*99/100], rt, cpu, kept,
		stopped.Round(time.Millisecond), killed.Round(time.Millisecond))
	b.ReportMetric(float64(nMembers), "members")
	b.ReportMetric(float64(objects), "objects")
	b.ReportMetric(float64(objects)/opened.Seconds(), "opens/s")
	b.ReportMetric(float64(lat[len(lat)/2])/1e6, "open-p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100])/1e6, "open-p99-ms")
	b.ReportMetric(rt, "idle-rt/s/member")
	b.ReportMetric(cpu, "idle-libsql-cpu-%")
	b.ReportMetric(kept, "held-after-idle-%")
	b.ReportMetric(killed.Seconds(), "failover-s")
	b.ReportMetric(stopped.Seconds(), "failover-stop-s")
}

// takeOver has m take object id, retrying every 10 ms while another
// member holds it, and returns how long that took.
func takeOver(b *testing.B, m *lease.Manager, id string) time.Duration {
	start := time.Now()
	for {
		_, err := m.Acquire(context.Background(), "Scale", id)
		if err == nil {
			return time.Since(start)
		}
		if !errors.Is(err, lease.ErrHeld) || time.Since(start) > time.Minute {
			b.Fatalf("take over object %s: %v (%v after the fault)", id, err, time.Since(start))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func roundTrips(ms []*member) uint64 {
	var n uint64
	for _, m := range ms {
		n += m.c.RoundTrips()
	}
	return n
}

// cuttable is an HTTP transport whose link can be cut (every request
// then fails at once, as from a process that was killed) or stalled
// (every request hangs until its context ends, as from a stopped one).
type cuttable struct {
	base    http.RoundTripper
	cut     atomic.Bool
	stalled atomic.Bool
}

var errCut = errors.New("link cut")

func (c *cuttable) stall() { c.stalled.Store(true) }

func (c *cuttable) RoundTrip(r *http.Request) (*http.Response, error) {
	if c.stalled.Load() {
		<-r.Context().Done()
		return nil, r.Context().Err()
	}
	if c.cut.Load() {
		return nil, errCut
	}
	return c.base.RoundTrip(r)
}

// cpuTime is the user and system CPU time a process has used, from
// /proc/PID/stat (in clock ticks of 1/100 s, as on Linux).
func cpuTime(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command (which may hold spaces), from field 3.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, s)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, nil
}

// closing runs a cleanup under a deadline: a member whose link stalls
// cannot hand anything back, and must not hang the run.
func closing(f func(ctx context.Context)) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	f(ctx)
}
