package fleet

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/test/fleettest"
)

// frontDoors is what a cloud load balancer or DNS round robin gives
// clients: the replicas' public addresses, skipping one that refuses
// connections (before any byte of the request was sent).
type frontDoors struct {
	mu    sync.RWMutex
	urls  []string
	ready []bool
	next  atomic.Uint64
}

// watch polls every front door's /readyz, as a load balancer's health check
// does, until stop is closed.
func (d *frontDoors) watch(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-time.After(100 * time.Millisecond):
		}
		d.mu.RLock()
		urls := append([]string(nil), d.urls...)
		d.mu.RUnlock()
		for i, u := range urls {
			resp, err := client.Get(u + "/readyz")
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

func (d *frontDoors) set(i int, u string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.urls[i] = u
}

// pick returns a front door that passed its last health check.
func (d *frontDoors) pick() string {
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

// do sends a request through some front door, moving on to another when
// one refuses the connection.
func (d *frontDoors) do(method, path string) error {
	var last error
	for range 6 {
		req, _ := http.NewRequest(method, d.pick()+path, nil)
		resp, err := client.Do(req)
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

// TestRollingRestart restarts every replica in turn (SIGTERM, wait, start)
// under continuous HTTP load and 50 open WebSockets: no HTTP request fails,
// and every WebSocket client reconnects.
func TestRollingRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("the rolling restart takes about a minute; -short skips it")
	}
	f := fleettest.Start(t, fleettest.Options{LeaseTTL: 5 * time.Second, DrainTimeout: 10 * time.Second})
	doors := &frontDoors{urls: make([]string, len(f.Replicas)), ready: make([]bool, len(f.Replicas))}
	for i, r := range f.Replicas {
		doors.set(i, r.Public)
		doors.ready[i] = true
	}

	stop := make(chan struct{})
	go doors.watch(stop)
	var (
		sent, failed atomic.Int64
		failures     sync.Map
		wg           sync.WaitGroup
	)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				var err error
				if i%2 == 0 {
					err = doors.do("POST", fmt.Sprintf("/counter/roll-%d/increment", (w*7+i)%20))
				} else {
					err = doors.do("GET", fmt.Sprintf("/counter/roll-%d", (w*3+i)%20))
				}
				sent.Add(1)
				if err != nil {
					failed.Add(1)
					failures.Store(err.Error(), true)
				}
			}
		}()
	}

	// 50 WebSocket clients in 10 rooms, reconnecting when closed.
	var reconnects atomic.Int64
	var worstGap atomic.Int64
	for c := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			room := fmt.Sprintf("roll%d", c%10)
			var closedAt time.Time
			for {
				select {
				case <-stop:
					return
				default:
				}
				u := strings.Replace(doors.pick(), "http://", "ws://", 1) + "/chat/rooms/" + room + "/ws?user=c" + fmt.Sprint(c)
				conn, _, err := websocket.DefaultDialer.Dial(u, nil)
				if err != nil {
					time.Sleep(50 * time.Millisecond)
					continue
				}
				if !closedAt.IsZero() {
					gap := time.Since(closedAt)
					reconnects.Add(1)
					for {
						old := worstGap.Load()
						if int64(gap) <= old || worstGap.CompareAndSwap(old, int64(gap)) {
							break
						}
					}
				}
				go func() { <-stop; conn.Close() }()
				for {
					if _, _, err := conn.ReadMessage(); err != nil {
						break
					}
				}
				closedAt = time.Now()
			}
		}()
	}

	time.Sleep(2 * time.Second)
	for i, r := range f.Replicas {
		r.Proc.Signal(syscall.SIGTERM)
		if code, err := r.Proc.Wait(40 * time.Second); err != nil || code != 0 {
			t.Errorf("%s: exit %d, %v after SIGTERM", r.Member, code, err)
		}
		r.Start()
		doors.set(i, r.Public)
		time.Sleep(2 * time.Second)
	}
	close(stop)
	wg.Wait()
	t.Logf("rolling restart of %d replicas: %d HTTP requests, %d failed; %d WebSocket reconnects, slowest %v",
		len(f.Replicas), sent.Load(), failed.Load(), reconnects.Load(), time.Duration(worstGap.Load()).Round(time.Millisecond))
	if failed.Load() > 0 {
		failures.Range(func(k, _ any) bool { t.Errorf("failed request: %v", k); return true })
	}
	if reconnects.Load() < 50 {
		t.Errorf("only %d WebSocket reconnects; every client should have reconnected at least once", reconnects.Load())
	}
}
