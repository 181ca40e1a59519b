package lbbench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/dwk/fleet/test/bench/load"
)

// Latency is one side's load result.
type Latency struct {
	load.Result
	// CPUPerRequest is the process's user+system CPU time per request
	// (clients, proxy and app servers together).
	CPUPerRequest time.Duration `json:"cpu_per_request_ns"`
}

// Names of the sides, which the report's figures are keyed by.
const (
	SideDirect    = "direct to an app server"
	SideFrontDoor = "through the front door to another replica (proxied)"
	SideHTTPUtil  = "through httputil.ReverseProxy"
	SideSelf      = "through the front door to its own replica (in process)"
)

// latency loads the sides one after the other, each client with its own
// object: objects placed on another member through the front door (and the
// same names direct and through httputil), then objects placed on the
// front door's own member.
func (e *env) latency(ctx context.Context, o Options) ([]Latency, error) {
	remote := e.names("Counter", o.Concurrency, false)
	local := e.names("Counter", o.Concurrency, true)
	sides := []struct {
		name, base string
		objects    []string
	}{
		{SideDirect, e.appURLs[0], remote},
		{SideFrontDoor, e.fdURL, remote},
		{SideHTTPUtil, e.rpURL, remote},
		{SideSelf, e.fdURL, local},
	}
	var out []Latency
	for _, s := range sides {
		if o.Only != "" && s.name != SideDirect && !strings.Contains(s.name, o.Only) {
			continue
		}
		client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 2 * o.Concurrency}}
		op := func(ctx context.Context, i int) error {
			return get(ctx, client, fmt.Sprintf("%s/counter/%s/value", s.base, s.objects[i%len(s.objects)]))
		}
		load.Run(ctx, "warm", o.Concurrency, min(time.Second, o.Duration), op)
		stop, err := profile(o.CPUProfile, s.name == SideFrontDoor)
		if err != nil {
			return nil, err
		}
		before := cpuTime()
		r := load.Run(ctx, s.name, o.Concurrency, o.Duration, op)
		used := cpuTime() - before
		stop()
		client.CloseIdleConnections()
		if r.Requests == 0 {
			return nil, fmt.Errorf("%s: no request succeeded: %s", s.name, r.FirstError)
		}
		out = append(out, Latency{Result: r, CPUPerRequest: used / time.Duration(r.Requests)})
	}
	return out, nil
}

func get(ctx context.Context, c *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	res, err := c.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, res.Status)
	}
	return nil
}

// cpuTime is the user plus system CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// profile starts a CPU profile into file when on and file is set; stop
// ends it.
func profile(file string, on bool) (stop func(), err error) {
	if file == "" || !on {
		return func() {}, nil
	}
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
