// Package lbbench measures the front door side by side with the
// alternatives, in one process, for `make bench`:
//
//   - latency (p50, p99) and CPU per request of the same object requests
//     sent (a) directly to an app server, (b) through the embedded front
//     door (Caddy with the dwk modules, members and leases in a real
//     coordination KV), and (c) through a plain httputil.ReverseProxy;
//   - memory per idle WebSocket: heap (plus goroutine stacks) and RSS per
//     socket with Sockets idle WebSockets opened directly, through the
//     front door to rooms on other members (spliced), and through it to
//     rooms on its own member (handed to the app in process).
//
// Everything runs in this process (clients, proxies, app servers), so CPU
// and memory are the process's: the proxy's own share is the difference
// from the direct side. The coordination KV is a `dwk libsql` process.
package lbbench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"
)

// Defaults of Options.
const (
	DefaultDuration    = 5 * time.Second
	DefaultConcurrency = 16
	DefaultSockets     = 500
	DefaultMembers     = 3
)

// Options tune a run. DWK is required; zero values of the rest are the
// defaults.
type Options struct {
	// DWK is the dwk binary that serves the coordination KV (dwk libsql).
	DWK string
	// Duration of the load on each side. Default: 5s.
	Duration time.Duration
	// Concurrency is the number of keep-alive clients. Default: 16.
	Concurrency int
	// Sockets is the number of idle WebSockets per side. Default: 500.
	Sockets int
	// Members is the number of app servers behind the front door.
	// Default: 3.
	Members int
	// CPUProfile, when set, is a file the CPU profile of the proxied
	// front-door side's load is written to (pprof format).
	CPUProfile string
	// SelfCPUProfile, when set, is a file the CPU profile of the
	// in-process side's load (requests for the front door's own replica)
	// is written to.
	SelfCPUProfile string
	// Only, when set, limits the request sides to the direct one and
	// those whose name contains it, and skips the sockets (for profiling
	// one side).
	Only string
}

func (o Options) withDefaults() (Options, error) {
	if o.DWK == "" {
		return o, errors.New("lbbench: the dwk binary is required")
	}
	if _, err := os.Stat(o.DWK); err != nil {
		return o, fmt.Errorf("lbbench: %w", err)
	}
	if o.Duration <= 0 {
		o.Duration = DefaultDuration
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.Sockets <= 0 {
		o.Sockets = DefaultSockets
	}
	if o.Members <= 0 {
		o.Members = DefaultMembers
	}
	return o, nil
}

// Report is the outcome of a run, shaped like a dwkbench report section.
type Report struct {
	Title   string     `json:"title"`
	Notes   string     `json:"notes"`
	Header  []string   `json:"header"`
	Rows    [][]string `json:"rows"`
	Latency []Latency  `json:"latency"`
	Sockets []Sockets  `json:"sockets"`
}

// Run measures every side and returns the report.
func Run(ctx context.Context, o Options) (*Report, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	env, err := setUp(ctx, o)
	if err != nil {
		return nil, err
	}
	defer env.tearDown()
	lat, err := env.latency(ctx, o)
	if err != nil {
		return nil, err
	}
	var socks []Sockets
	if o.Only == "" {
		if socks, err = env.sockets(ctx, o); err != nil {
			return nil, err
		}
	}
	return report(o, lat, socks), nil
}
