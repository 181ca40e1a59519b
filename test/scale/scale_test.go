package scale

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
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

// Members is how many members share the objects at every point.
const Members = 3

// defaultObjects are the object counts measured when DWK_SCALE_OBJECTS
// (comma-separated) does not name others.
var defaultObjects = []int{1_000, 10_000, 100_000}

// idleWindow is how long the idle coordination cost is measured.
const idleWindow = 10 * time.Second

// BenchmarkScale holds objects across Members simulated members, each a
// real lease manager with its own coordination client against one real
// `dwk libsql`, at default lease settings, for each object count. It
// reports, per count: the lease acquisition latency of new objects (p50
// and p99, 16 at once), the idle cost once they are held (coordination
// round trips per second per member, and the libSQL server's CPU as a
// share of one core), the share of the leases still held after the idle
// window (renewals that fall behind let leases lapse), and the failover
// time: a member whose link to the
// libSQL server is cut (as by kill -9: nothing is released) has its
// object taken by another member, which retries every 10 ms.
func BenchmarkScale(b *testing.B) {
	for _, n := range objectCounts(b) {
		b.Run(fmt.Sprintf("objects=%d", n), func(b *testing.B) {
			for range b.N {
				runPoint(b, n)
			}
		})
	}
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

func runPoint(b *testing.B, objects int) {
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
	members := make([]*member, Members)
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
		b.Cleanup(func() { st.Close(context.Background()) })
		name := fmt.Sprintf("m%d", i)
		m := lease.New(lease.Config{Coord: st, Member: name, Addr: name + ".internal:9000", Logger: quiet})
		if err := m.Open(ctx); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { m.Close(context.Background()) })
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
				if _, err := members[i%Members].m.Acquire(gctx, "Scale", strconv.Itoa(i)); err != nil {
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
	rt := float64(roundTrips(members)-rt0) / idleWindow.Seconds() / Members
	cpu1, err := cpuTime(srv.PID())
	if err != nil {
		b.Fatal(err)
	}
	cpu := (cpu1 - cpu0).Seconds() / idleWindow.Seconds() * 100
	// Leases whose renewals fell behind lapse: the share still held says
	// whether the members keep up.
	held := 0
	for _, mb := range members {
		held += mb.m.Count()
	}
	kept := float64(held) / float64(objects) * 100

	// Failover: member 0's link is cut; member 1 takes its object 0.
	members[0].link.cut.Store(true)
	cut := time.Now()
	var failover time.Duration
	deadline := cut.Add(time.Minute)
	for {
		_, err := members[1].m.Acquire(ctx, "Scale", "0")
		if err == nil {
			failover = time.Since(cut)
			break
		}
		if !errors.Is(err, lease.ErrHeld) || time.Now().After(deadline) {
			b.Fatalf("take over object 0: %v (%v after the cut)", err, time.Since(cut))
		}
		time.Sleep(10 * time.Millisecond)
	}

	b.Logf("%d objects: opened in %v (p50 %v, p99 %v); idle %.1f round trips/s per member, libSQL %.1f%% of a core, %.1f%% of the leases still held; failover %v",
		objects, opened.Round(time.Millisecond), lat[len(lat)/2], lat[len(lat)*99/100], rt, cpu, kept, failover.Round(time.Millisecond))
	b.ReportMetric(float64(objects), "objects")
	b.ReportMetric(float64(objects)/opened.Seconds(), "opens/s")
	b.ReportMetric(float64(lat[len(lat)/2])/1e6, "open-p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100])/1e6, "open-p99-ms")
	b.ReportMetric(rt, "idle-rt/s/member")
	b.ReportMetric(cpu, "idle-libsql-cpu-%")
	b.ReportMetric(kept, "held-after-idle-%")
	b.ReportMetric(failover.Seconds(), "failover-s")
}

func roundTrips(ms []*member) uint64 {
	var n uint64
	for _, m := range ms {
		n += m.c.RoundTrips()
	}
	return n
}

// cuttable is an HTTP transport whose link can be cut: every request
// then fails at once, as to a process that was killed.
type cuttable struct {
	base http.RoundTripper
	cut  atomic.Bool
}

var errCut = errors.New("link cut")

func (c *cuttable) RoundTrip(r *http.Request) (*http.Response, error) {
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
