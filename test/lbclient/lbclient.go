// Package lbclient is what a cloud load balancer or DNS round robin gives
// clients of a fleet in tests: the replicas' front doors, health-checked on
// /readyz, skipping one that refuses connections (before any byte of a
// request was sent, so a retry is safe for any method). Rolling-deploy
// tests measure failed requests through it.
package lbclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Doors are a fleet's front doors.
type Doors struct {
	client *http.Client
	mu     sync.RWMutex
	urls   []string
	ready  []bool
	next   atomic.Uint64
}

// New returns the front doors urls, all taken as ready, each request
// bounded by timeout.
func New(urls []string, timeout time.Duration) *Doors {
	d := &Doors{client: &http.Client{Timeout: timeout}, urls: append([]string(nil), urls...), ready: make([]bool, len(urls))}
	for i := range d.ready {
		d.ready[i] = true
	}
	return d
}

// Watch polls every front door's /readyz every 100 ms, as a load
// balancer's health check does, until ctx ends.
func (d *Doors) Watch(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(100 * time.Millisecond):
		}
		d.mu.RLock()
		urls := append([]string(nil), d.urls...)
		d.mu.RUnlock()
		for i, u := range urls {
			resp, err := d.client.Get(u + "/readyz")
			ok := err == nil && resp.StatusCode == http.StatusOK
			if err == nil {
				resp.Body.Close()
			}
			d.mu.Lock()
			d.ready[i] = ok
			d.mu.Unlock()
		}
	}
}

// Set replaces front door i (a replica that came back elsewhere).
func (d *Doors) Set(i int, u string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.urls[i] = u
}

// Pick returns a front door that passed its last health check.
func (d *Doors) Pick() string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	for range len(d.urls) {
		i := d.next.Add(1) % uint64(len(d.urls))
		if d.ready[i] {
			return d.urls[i]
		}
	}
	return d.urls[d.next.Add(1)%uint64(len(d.urls))]
}

// Do sends a request through some front door, moving on to another when
// one refuses the connection, and fails on any other error or a status
// of 300 or more.
func (d *Doors) Do(method, path string) error {
	var last error
	for range 6 {
		req, _ := http.NewRequest(method, d.Pick()+path, nil)
		resp, err := d.client.Do(req)
		if err != nil {
			var op *net.OpError
			if errors.As(err, &op) && op.Op == "dial" {
				last = err
				continue
			}
			return err
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			return fmt.Errorf("%s %s: %s (member %s): %.200s", method, path, resp.Status, resp.Header.Get("X-Dwk-Member"), body)
		}
		return nil
	}
	return last
}
