package soak

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/test/fleettest"
)

// createClients is how many clients create objects at once through one
// front door.
const createClients = 16

// createWindow is how long the clients create objects, and how long they
// write to existing ones.
const createWindow = 10 * time.Second

// BenchmarkObjectCreation measures what a new object costs on a 3-replica
// fleet at default settings, through one front door: the first request to
// a new object against a write to an existing one, taking turns from one
// client (300 pairs; the p50s and their ratio), and how many new objects
// createClients clients create per second, each sending the first request
// to one new object after another for createWindow. Just before, the same
// clients write for createWindow, each to an object of its own: the
// writes per second that creation compares with, on the same fleet.
func BenchmarkObjectCreation(b *testing.B) {
	f := fleettest.Start(b, fleettest.Options{})
	door := f.Replicas[0].Public
	client := &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: createClients}}
	inc := func(name string) (time.Duration, error) {
		t0 := time.Now()
		resp, err := client.Post(door+"/counter/"+name+"/increment", "", nil)
		if err != nil {
			return 0, err
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return 0, fmt.Errorf("increment %s: %s: %s", name, resp.Status, bytes.TrimSpace(body))
		}
		return time.Since(t0), nil
	}
	run := time.Now().UnixNano()
	// Warm up: the object written to, and a few creations on every path.
	for i := range 20 {
		if _, err := inc(fmt.Sprintf("warm-%d-%d", run, i)); err != nil {
			b.Fatal(err)
		}
	}
	existing := fmt.Sprintf("existing-%d", run)
	const pairs = 300
	var first, write []time.Duration
	for i := range pairs {
		d, err := inc(fmt.Sprintf("first-%d-%d", run, i))
		if err != nil {
			b.Fatal(err)
		}
		first = append(first, d)
		if d, err = inc(existing); err != nil {
			b.Fatal(err)
		}
		write = append(write, d)
	}
	p50 := func(ds []time.Duration) time.Duration {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return ds[len(ds)/2]
	}
	firstP50, writeP50 := p50(first), p50(write)

	// The same clients, each writing to an object of its own that exists:
	// the ceiling creation is measured against.
	for c := range createClients {
		if _, err := inc(fmt.Sprintf("own-%d-%d", run, c)); err != nil {
			b.Fatal(err)
		}
	}
	writes, writeTook, err := during(createClients, func(c, i int) error {
		_, err := inc(fmt.Sprintf("own-%d-%d", run, c))
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	made, took, err := during(createClients, func(c, i int) error {
		_, err := inc(fmt.Sprintf("new-%d-%d-%d", run, c, i))
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	writeRate := float64(writes) / writeTook.Seconds()
	rate := float64(made) / took.Seconds()
	b.Logf("first request p50 %v, write p50 %v (ratio %.2f); %d clients created %d objects in %v: %.0f/s; wrote to existing objects %.0f/s",
		firstP50, writeP50, float64(firstP50)/float64(writeP50), createClients, made, took.Round(time.Millisecond), rate, writeRate)
	b.ReportMetric(float64(firstP50)/1e6, "first-p50-ms")
	b.ReportMetric(float64(writeP50)/1e6, "write-p50-ms")
	b.ReportMetric(float64(firstP50)/float64(writeP50), "first/write")
	b.ReportMetric(rate, "creates/s")
	b.ReportMetric(writeRate, "writes/s")
	b.ReportMetric(createClients, "clients")
}

// during runs clients goroutines for createWindow, each calling op with
// its number and a count of its calls, one call after another; it returns
// how many calls succeeded, how long that took, and the first failure.
func during(clients int, op func(c, i int) error) (int64, time.Duration, error) {
	var done atomic.Int64
	var first sync.Once
	var failed error
	var wg sync.WaitGroup
	start := time.Now()
	end := start.Add(createWindow)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; time.Now().Before(end); i++ {
				if err := op(c, i); err != nil {
					first.Do(func() { failed = err })
					return
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	return done.Load(), time.Since(start), failed
}
