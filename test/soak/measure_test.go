package soak

import (
	"fmt"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/test/lbclient"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/server"
	"github.com/dwk/fleet/test/fleettest"
)

// The fleet measurements `make bench` reports. Each starts a real fleet and
// reports its figures with b.ReportMetric; run them with -benchtime 1x (a
// repetition count is built in, as each repetition kills or drains a
// replica).

var benchClient = &http.Client{Timeout: 20 * time.Second}

// holderOf increments counter name through r and returns the member that
// served it (the holder's header comes back through a forward).
func holderOf(b *testing.B, r *fleettest.Replica, name string) string {
	b.Helper()
	resp, err := benchClient.Post(r.Public+"/counter/"+name+"/increment", "", nil)
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("increment %s: %s", name, resp.Status)
	}
	return resp.Header.Get("X-Dwk-Member")
}

// pollClient gives up on a request quickly, so a request stuck at a frozen
// holder does not hide when fresh requests are served again.
var pollClient = &http.Client{Timeout: 500 * time.Millisecond}

// servedElsewhere polls r until it serves counter name from a member other
// than not, and returns when; it fails b after limit.
func servedElsewhere(b *testing.B, r *fleettest.Replica, name, not string, limit time.Duration) time.Time {
	b.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		resp, err := pollClient.Get(r.Public + "/counter/" + name)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && resp.Header.Get("X-Dwk-Member") != not {
				return time.Now()
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.Fatalf("%s not served elsewhere than %s within %v", name, not, limit)
	return time.Time{}
}

func replicaNamed(f *fleettest.Fleet, member string) (int, *fleettest.Replica) {
	for i, r := range f.Replicas {
		if r.Member == member {
			return i, r
		}
	}
	return -1, nil
}

func reportSpread(b *testing.B, ds []time.Duration, unit time.Duration, prefix string) {
	slices.Sort(ds)
	med, worst := ds[len(ds)/2], ds[len(ds)-1]
	b.ReportMetric(float64(med.Milliseconds()), prefix+"-median-ms")
	b.ReportMetric(float64(worst.Milliseconds()), prefix+"-max-ms")
	if unit > 0 {
		b.ReportMetric(med.Seconds()/unit.Seconds(), prefix+"-median-TTL")
		b.ReportMetric(worst.Seconds()/unit.Seconds(), prefix+"-max-TTL")
	}
}

// BenchmarkFailover times, at default settings, how long an object is
// served by no replica after its holder is killed (SIGKILL, restarted
// only after the object is served elsewhere) and after it is frozen
// (SIGSTOP, resumed after), five times each; and the coordination round
// trips per second of a replica holding leases (liveness and member heartbeats,
// listings), over five seconds.
func BenchmarkFailover(b *testing.B) {
	const reps = 5
	ttl := config.DefaultLeaseTTL
	f := fleettest.Start(b, fleettest.Options{LeaseTTL: ttl})
	for _, fault := range []string{"kill", "stop"} {
		var took []time.Duration
		for i := range reps {
			name := fmt.Sprintf("failover-%s-%d", fault, i)
			holder := holderOf(b, f.Replicas[0], name)
			vi, victim := replicaNamed(f, holder)
			if victim == nil {
				b.Fatalf("holder %q is not a replica", holder)
			}
			other := f.Replicas[(vi+1)%len(f.Replicas)]
			if fault == "kill" {
				victim.Kill()
			} else {
				victim.Pause()
			}
			faulted := time.Now()
			took = append(took, servedElsewhere(b, other, name, holder, 10*ttl).Sub(faulted))
			if fault == "kill" {
				victim.Start()
			} else {
				victim.Resume()
			}
			waitReady(b, victim)
		}
		reportSpread(b, took, ttl, "failover-"+fault)
	}
	b.ReportMetric(float64(ttl.Milliseconds()), "lease-ttl-ms")

	// Renewal load: a replica holding leases, idle.
	r := f.Replicas[0]
	for i := range 5 {
		holderOf(b, r, fmt.Sprintf("renewal-%d", i))
	}
	metric := `dwk_coord_round_trips_total{member="` + r.Member + `"}`
	before, ok := r.Metric(metric)
	start := time.Now()
	time.Sleep(5 * time.Second)
	after, ok2 := r.Metric(metric)
	if !ok || !ok2 {
		b.Fatalf("metric %s not found", metric)
	}
	b.ReportMetric((after-before)/time.Since(start).Seconds(), "coord-round-trips-per-s")
}

// waitReady waits until r answers /readyz with 200.
func waitReady(b *testing.B, r *fleettest.Replica) {
	b.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := benchClient.Get(r.Public + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.Fatalf("%s not ready within 60s", r.Member)
}

// BenchmarkDrainHandoff drains (SIGTERM) the holder of five objects and
// times until the last of them is served elsewhere, three times (lease TTL
// 10s, so only the handback, not an expiry, can explain a fast handoff).
func BenchmarkDrainHandoff(b *testing.B) {
	const reps = 3
	f := fleettest.Start(b, fleettest.Options{LeaseTTL: 10 * time.Second})
	var took []time.Duration
	for rep := range reps {
		drainer := f.Replicas[rep%len(f.Replicas)]
		other := f.Replicas[(rep+1)%len(f.Replicas)]
		var names []string
		for i := 0; len(names) < 5 && i < 300; i++ {
			n := fmt.Sprintf("drain-%d-%d", rep, i)
			if holderOf(b, drainer, n) == drainer.Member {
				names = append(names, n)
			}
		}
		if len(names) < 5 {
			b.Fatalf("only %d objects placed on %s", len(names), drainer.Member)
		}
		start := time.Now()
		drainer.Proc.Signal(syscall.SIGTERM)
		var worst time.Duration
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, n := range names {
			wg.Add(1)
			go func() {
				defer wg.Done()
				d := servedElsewhere(b, other, n, drainer.Member, 30*time.Second).Sub(start)
				mu.Lock()
				worst = max(worst, d)
				mu.Unlock()
			}()
		}
		wg.Wait()
		if code, err := drainer.Proc.Wait(30 * time.Second); err != nil || code != 0 {
			b.Fatalf("drained replica: exit %d, %v", code, err)
		}
		took = append(took, worst)
		drainer.Start()
	}
	reportSpread(b, took, 0, "handoff")
}

// BenchmarkRollingDeploy restarts every replica in turn (SIGTERM, wait,
// start) under load through health-checked front doors and counts failed
// requests: the figure a deploy is judged by.
func BenchmarkRollingDeploy(b *testing.B) {
	f := fleettest.Start(b, fleettest.Options{LeaseTTL: 5 * time.Second})
	urls := make([]string, len(f.Replicas))
	for i, r := range f.Replicas {
		urls[i] = r.Public
	}
	doors := lbclient.NewDoors(urls)
	stop := make(chan struct{})
	var sent, failed atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); doors.Watch(stop) }()
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			loop(stop, 10*time.Millisecond, func(i int) {
				var err error
				if i%2 == 0 {
					_, err = doors.Do("POST", fmt.Sprintf("/counter/roll-%d/increment", (w*7+i)%20), "", nil)
				} else {
					_, err = doors.Do("GET", fmt.Sprintf("/counter/roll-%d", (w*3+i)%20), "", nil)
				}
				sent.Add(1)
				if err != nil {
					failed.Add(1)
					b.Logf("failed: %s", firstLine(err.Error()))
				}
			})
		}()
	}
	time.Sleep(2 * time.Second) // load pacing: traffic before the deploy
	start := time.Now()
	for i, r := range f.Replicas {
		r.Stop()
		r.Start()
		doors.Set(i, r.Public)
		time.Sleep(time.Second) // the deploy's health gate
	}
	took := time.Since(start)
	close(stop)
	wg.Wait()
	b.ReportMetric(float64(sent.Load()), "requests")
	b.ReportMetric(float64(failed.Load()), "failed")
	b.ReportMetric(took.Seconds(), "deploy-s")
}

// BenchmarkCoordRoundTrips counts the coordination-store round trips each
// request costs while a replica holds the object's lease, per request: the
// replica tags every request's context and reports the libSQL round trips
// made under it (server.RoundTripsHeader). It measures 1,000 increments
// sent straight to the holder's internal listener (the held-lease path),
// then 1,000 through the holder's front door (which may route a request
// through another replica while its lease cache is stale), and the
// background coordination traffic of the holder during the first window:
// dwk_coord_round_trips_total minus what requests made.
func BenchmarkCoordRoundTrips(b *testing.B) {
	const n = 1000
	f := fleettest.Start(b, fleettest.Options{LeaseTTL: 10 * time.Second})
	r := f.Replicas[0]
	var name string
	for i := 0; i < 100 && name == ""; i++ {
		if cand := fmt.Sprintf("rt-%d", i); holderOf(b, r, cand) == r.Member {
			name = cand
		}
	}
	if name == "" {
		b.Fatal("no object placed on r0 in 100 tries")
	}
	read := func(metric string) float64 {
		v, ok := r.Metric(metric)
		if !ok {
			b.Fatalf("metric %s not found", metric)
		}
		return v
	}
	all := `dwk_coord_round_trips_total{member="` + r.Member + `"}`
	byRequests := `dwk_request_round_trips_total{member="` + r.Member + `",store="coord"}`
	allBefore, reqBefore := read(all), read(byRequests)
	holderCoord, holderOther := countRoundTrips(b, r.Fleet().InternalClient(), "http://"+r.Internal, name, n)
	background := (read(all) - allBefore) - (read(byRequests) - reqBefore)
	start := time.Now()
	doorCoord, doorOther := countRoundTrips(b, benchClient, r.Public, name, n)
	took := time.Since(start)
	b.ReportMetric(float64(holderCoord), "coord-round-trips")
	b.ReportMetric(float64(holderOther), "libsql-round-trips")
	b.ReportMetric(float64(doorCoord), "door-coord-round-trips")
	b.ReportMetric(float64(doorOther), "door-libsql-round-trips")
	b.ReportMetric(background, "background-round-trips")
	b.ReportMetric(n, "requests")
	b.ReportMetric(float64(took.Nanoseconds())/n, "ns/op")
}

// countRoundTrips increments counter name through url n times, one after
// the other, and sums the libSQL round trips each request reports: to the
// coordination database and to others.
func countRoundTrips(b *testing.B, c *http.Client, url, name string, n int) (coord, other int64) {
	b.Helper()
	for range n {
		req, err := http.NewRequest(http.MethodPost, url+"/counter/"+name+"/increment", nil)
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set(server.RoundTripsHeader, "1")
		resp, err := c.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("increment %s: %s", name, resp.Status)
		}
		var c, o int64
		h := resp.Header.Get(server.RoundTripsHeader)
		if _, err := fmt.Sscanf(h, "coord=%d libsql=%d", &c, &o); err != nil {
			b.Fatalf("increment %s: %s = %q: %v", name, server.RoundTripsHeader, h, err)
		}
		coord, other = coord+c, other+o
	}
	return coord, other
}
