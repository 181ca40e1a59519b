package fleet

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/wait"
)

// TestCounterGatesKeepAcknowledgedWritesOverAKill: a counter takes plain
// increments and gives to itself (give calls the counter's own Add, so
// each give is an event that awaits a call back into its object: the input
// gate opens and the increments run meanwhile). Half way its holder is
// killed with SIGKILL. Every acknowledged increment and give must be in
// the counter another replica serves, and nothing that was never sent.
func TestCounterGatesKeepAcknowledgedWritesOverAKill(t *testing.T) {
	ttl := 2 * time.Second
	f := fleettest.Start(t, fleettest.Options{LeaseTTL: ttl})
	name := fmt.Sprintf("gates-%d", time.Now().UnixNano())
	victim, _ := holderAndOther(t, f, name) // one increment, acknowledged
	var others []*fleettest.Replica
	for _, r := range f.Replicas {
		if r != victim {
			others = append(others, r)
		}
	}
	var (
		acked, sent, gives atomic.Int64
		killed             atomic.Bool
	)
	acked.Add(1)
	sent.Add(1)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				// Through every front door until the kill, then the others.
				via := f.Replicas[(w+i)%len(f.Replicas)]
				if killed.Load() {
					via = others[(w+i)%len(others)]
				}
				url := via.Public + "/counter/" + name + "/increment"
				give := w%2 == 1
				if give {
					url = via.Public + "/counter/" + name + "/give?to=" + name
				}
				sent.Add(1)
				if _, _, err := post(url, nil); err == nil {
					acked.Add(1)
					if give {
						gives.Add(1)
					}
				}
			}
		}()
	}
	wait.Within(t, 30*time.Second, "some gives to complete", func() bool { return gives.Load() >= 20 })
	victim.Kill()
	killed.Store(true)
	wait.Within(t, 4*ttl, "another replica to serve the counter", func() bool {
		_, m, err := get(others[0].Public+"/counter/"+name, nil)
		return err == nil && m != victim.Member
	})
	before := acked.Load()
	wait.Within(t, 30*time.Second, "writes to go on after the failover", func() bool { return acked.Load() >= before+20 })
	close(stop)
	wg.Wait()
	var got struct{ Value int64 }
	if _, _, err := get(others[1].Public+"/counter/"+name, &got); err != nil {
		t.Fatal(err)
	}
	if got.Value < acked.Load() || got.Value > sent.Load() {
		t.Fatalf("counter = %d, acknowledged = %d, sent = %d: an acknowledged write was lost, or one never sent landed", got.Value, acked.Load(), sent.Load())
	}
	t.Logf("counter %d: acknowledged %d (%d gives to itself), sent %d", got.Value, acked.Load(), gives.Load(), sent.Load())
}
