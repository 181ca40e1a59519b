// Package lbclient is what a cloud load balancer or DNS round robin gives
// a fleet's clients in tests: the replicas' front doors, health-checked on
// /readyz, skipping one that refuses connections. The soak and the
// rolling-deploy tests count failed requests through it.
package lbclient

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Doors is what a cloud load balancer or DNS round robin gives clients: the
// replicas' public addresses, health-checked through /readyz, skipping one
// that refuses connections (before any byte of the request was sent).
type Doors struct {
	client *http.Client
	health *http.Client
	mu     sync.RWMutex
	urls   []string
	ready  []bool
	next   atomic.Uint64
}

// NewDoors returns front doors over urls, all assumed ready.
func NewDoors(urls []string) *Doors {
	d := &Doors{
		client: &http.Client{Timeout: 20 * time.Second},
		// A paused replica never answers; the health check must not wait
		// for it longer than a load balancer would.
		health: &http.Client{Timeout: 500 * time.Millisecond},
		urls:   append([]string(nil), urls...),
		ready:  make([]bool, len(urls)),
	}
	for i := range d.ready {
		d.ready[i] = true
	}
	return d
}

// Watch polls every door's /readyz every 100ms, as a load balancer's health
// check does, until stop is closed.
func (d *Doors) Watch(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-time.After(100 * time.Millisecond):
		}
		d.mu.RLock()
		urls := append([]string(nil), d.urls...)
		d.mu.RUnlock()
		var wg sync.WaitGroup
		for i, u := range urls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp, err := d.health.Get(u + "/readyz")
				ok := err == nil && resp.StatusCode == http.StatusOK
				if err == nil {
					resp.Body.Close()
				}
				d.mu.Lock()
				if d.urls[i] == u {
					d.ready[i] = ok
				}
				d.mu.Unlock()
			}()
		}
		wg.Wait()
	}
}

// Set replaces door i's address (a restarted replica listens on a new
// port); it counts as ready until the next health check says otherwise.
func (d *Doors) Set(i int, u string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.urls[i] = u
	d.ready[i] = true
}

// Pick returns a door that passed its last health check, round robin, or
// any door when none did.
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

// Response is a completed request.
type Response struct {
	Status int
	Member string
	Body   []byte
}

// ErrStatus marks an answer with a status of 300 or more.
var ErrStatus = errors.New("unexpected status")

// Do sends a request through some door, moving on to another when one
// refuses the connection (nothing was sent, so the retry is safe). The
// error says whether the request may have had an effect: see Sent.
func (d *Doors) Do(method, path, contentType string, body []byte) (Response, error) {
	var last error
	for range 6 {
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		req, err := http.NewRequest(method, d.Pick()+path, rd)
		if err != nil {
			return Response{}, err
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		resp, err := d.client.Do(req)
		if err != nil {
			if Refused(err) {
				last = err
				continue
			}
			return Response{}, &RequestError{Err: err, Sent: true}
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		r := Response{Status: resp.StatusCode, Member: resp.Header.Get("X-Dwk-Member"), Body: b}
		if err != nil {
			return r, &RequestError{Err: err, Sent: true}
		}
		if resp.StatusCode >= 300 {
			return r, &RequestError{Err: fmt.Errorf("%w: %s %s: %s (member %s): %.200s", ErrStatus, method, path, resp.Status, r.Member, b), Sent: true, Status: resp.StatusCode}
		}
		return r, nil
	}
	return Response{}, &RequestError{Err: last}
}

// RequestError is a failed request.
type RequestError struct {
	Err error
	// Sent is false only when every door refused the connection, so the
	// request cannot have had an effect.
	Sent bool
	// Status is the HTTP status, 0 when there was no answer.
	Status int
}

func (e *RequestError) Error() string { return e.Err.Error() }
func (e *RequestError) Unwrap() error { return e.Err }

// Refused tells whether err is a failure to connect: nothing was sent,
// so a client may try another door.
func Refused(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
