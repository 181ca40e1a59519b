package lbbench

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/pprof"
	"slices"
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

// Rounds is how many times each side is loaded; the sides take turns, and
// each side's report is its round with the median CPU per request, so that
// a burst of noise on the machine moves no single side's figure.
const Rounds = 3

// latency loads the sides in turn, Rounds times, each client with its own
// object: objects placed on another member through the front door (and the
// same names direct and through httputil), then objects placed on the
// front door's own member.
func (e *env) latency(ctx context.Context, o Options) ([]Latency, error) {
	remote := e.names("Counter", o.Concurrency, false)
	local := e.names("Counter", o.Concurrency, true)
	type side struct {
		name, base string
		objects    []string
		rounds     []Latency
	}
	var sides []*side
	for _, s := range []side{
		{name: SideDirect, base: e.appURLs[0], objects: remote},
		{name: SideFrontDoor, base: e.fdURL, objects: remote},
		{name: SideHTTPUtil, base: e.rpURL, objects: remote},
		{name: SideSelf, base: e.fdURL, objects: local},
	} {
		if o.Only == "" || s.name == SideDirect || strings.Contains(s.name, o.Only) {
			sides = append(sides, &s)
		}
	}
	profiles := map[string]string{SideFrontDoor: o.CPUProfile, SideSelf: o.SelfCPUProfile}
	for round := range Rounds {
		for _, s := range sides {
			prof := ""
			if round == 0 {
				prof = profiles[s.name]
			}
			l, err := e.load(ctx, o, s.name, s.base, s.objects, prof)
			if err != nil {
				return nil, err
			}
			s.rounds = append(s.rounds, l)
		}
	}
	out := make([]Latency, len(sides))
	for i, s := range sides {
		slices.SortFunc(s.rounds, func(a, b Latency) int { return cmp.Compare(a.CPUPerRequest, b.CPUPerRequest) })
		out[i] = s.rounds[len(s.rounds)/2]
	}
	return out, nil
}

// load runs one side's load once (after a warm-up) and measures it; with
// a profile file, it writes the CPU profile of the load there.
func (e *env) load(ctx context.Context, o Options, name, base string, objects []string, profileFile string) (Latency, error) {
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 2 * o.Concurrency}}
	defer client.CloseIdleConnections()
	op := func(ctx context.Context, i int) error {
		return get(ctx, client, fmt.Sprintf("%s/counter/%s/value", base, objects[i%len(objects)]))
	}
	load.Run(ctx, "warm", o.Concurrency, min(time.Second, o.Duration), op)
	stop, err := profile(profileFile)
	if err != nil {
		return Latency{}, err
	}
	before := cpuTime()
	r := load.Run(ctx, name, o.Concurrency, o.Duration, op)
	used := cpuTime() - before
	stop()
	if r.Requests == 0 {
		return Latency{}, fmt.Errorf("%s: no request succeeded: %s", name, r.FirstError)
	}
	return Latency{Result: r, CPUPerRequest: used / time.Duration(r.Requests)}, nil
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

// profile starts a CPU profile into file, if set; stop ends it.
func profile(file string) (stop func(), err error) {
	if file == "" {
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
