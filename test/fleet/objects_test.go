package fleet

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/dwk/fleet/test/fleettest"
)

// TestCounterAcrossReplicas increments one counter through every replica at
// once: the final value equals the acknowledged increments.
func TestCounterAcrossReplicas(t *testing.T) {
	f := fleettest.Start(t, fleettest.Options{})
	var acked atomic.Int64
	var wg sync.WaitGroup
	for _, r := range f.Replicas {
		for range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 20 {
					if _, _, err := post(r.Public+"/counter/shared/increment", nil); err == nil {
						acked.Add(1)
					} else {
						t.Log(err)
					}
				}
			}()
		}
	}
	wg.Wait()
	var got struct{ Value int64 }
	if _, _, err := get(f.Replicas[0].Public+"/counter/shared", &got); err != nil {
		t.Fatal(err)
	}
	if got.Value != acked.Load() {
		t.Fatalf("counter = %d, acknowledged increments = %d", got.Value, acked.Load())
	}
	if acked.Load() < 170 {
		t.Errorf("only %d of 180 increments acknowledged", acked.Load())
	}
}
