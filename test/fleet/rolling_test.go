package fleet

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/lbclient"
)

// TestRollingRestart restarts every replica in turn (SIGTERM, wait, start)
// under continuous HTTP load and 50 open WebSockets: no HTTP request fails,
// and every WebSocket client reconnects.
func TestRollingRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("the rolling restart takes about a minute; -short skips it")
	}
	f := fleettest.Start(t, fleettest.Options{LeaseTTL: 5 * time.Second, DrainTimeout: 10 * time.Second})
	var urls []string
	for _, r := range f.Replicas {
		urls = append(urls, r.Public)
	}
	doors := lbclient.NewDoors(urls)

	stop := make(chan struct{})
	go doors.Watch(stop)
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
					_, err = doors.Do("POST", fmt.Sprintf("/counter/roll-%d/increment", (w*7+i)%20), "", nil)
				} else {
					_, err = doors.Do("GET", fmt.Sprintf("/counter/roll-%d", (w*3+i)%20), "", nil)
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
				u := strings.Replace(doors.Pick(), "http://", "ws://", 1) + "/chat/rooms/" + room + "/ws?user=c" + fmt.Sprint(c)
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
		doors.Set(i, r.Public)
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
