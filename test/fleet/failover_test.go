package fleet

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/wait"
)

// TestFailoverAfterKill kills the holder of an object with SIGKILL: another
// replica serves it within the lease TTL plus one poll.
func TestFailoverAfterKill(t *testing.T) {
	ttl := 2 * time.Second
	f := fleettest.Start(t, fleettest.Options{LeaseTTL: ttl})
	for range 3 {
		if _, _, err := post(f.Replicas[0].Public+"/counter/failover/increment", nil); err != nil {
			t.Fatal(err)
		}
	}
	// Find the holder: every replica forwards to it, and the holder's own
	// member header is in the forwarded response.
	var holder string
	for _, r := range f.Replicas {
		if _, m, err := get(r.Public+"/counter/failover", nil); err == nil && m != "" {
			holder = m
		}
	}
	var victim, other *fleettest.Replica
	for _, r := range f.Replicas {
		if r.Member == holder {
			victim = r
		} else if other == nil {
			other = r
		}
	}
	if victim == nil {
		t.Fatalf("holder %q is not a replica", holder)
	}
	victim.Kill()
	killed := time.Now()
	var got struct{ Value int64 }
	wait.Within(t, 4*ttl, "another replica serves the object", func() bool {
		_, m, err := get(other.Public+"/counter/failover", &got)
		return err == nil && m != victim.Member
	})
	took := time.Since(killed)
	t.Logf("failover after kill -9: %v (lease TTL %v, %.2f TTL)", took.Round(time.Millisecond), ttl, took.Seconds()/ttl.Seconds())
	if got.Value != 3 {
		t.Errorf("value after failover = %d, want 3", got.Value)
	}
	if took > ttl+2*time.Second {
		t.Errorf("failover took %v, want within TTL (%v) plus one poll", took, ttl)
	}
}

// TestFencingAfterPause pauses the holder past its lease TTL while another
// replica takes over and writes, then resumes it: none of the paused
// holder's writes lands and no acknowledged increment is lost.
func TestFencingAfterPause(t *testing.T) {
	ttl := 2 * time.Second
	f := fleettest.Start(t, fleettest.Options{LeaseTTL: ttl})
	name := "fenced"
	var acked atomic.Int64
	inc := func(r *fleettest.Replica) error {
		_, _, err := post(r.Public+"/counter/"+name+"/increment", nil)
		if err == nil {
			acked.Add(1)
		}
		return err
	}
	if err := inc(f.Replicas[0]); err != nil {
		t.Fatal(err)
	}
	var holder string
	for _, r := range f.Replicas {
		if _, m, err := get(r.Public+"/counter/"+name, nil); err == nil {
			holder = m
		}
	}
	var paused *fleettest.Replica
	var others []*fleettest.Replica
	for _, r := range f.Replicas {
		if r.Member == holder {
			paused = r
		} else {
			others = append(others, r)
		}
	}
	// Requests sent straight to the paused holder hang until it resumes;
	// whatever they do then must not land.
	var wg sync.WaitGroup
	paused.Pause()
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := inc(paused); err != nil {
				t.Logf("write to the paused holder failed as it should: %v", firstLine(err))
			}
		}()
	}
	time.Sleep(ttl + ttl/2)
	for range 10 {
		if err := inc(others[0]); err != nil {
			t.Logf("increment during takeover: %v", firstLine(err))
		}
	}
	paused.Resume()
	wg.Wait()
	time.Sleep(200 * time.Millisecond)
	var got struct{ Value int64 }
	if _, _, err := get(others[1].Public+"/counter/"+name, &got); err != nil {
		t.Fatal(err)
	}
	if got.Value != acked.Load() {
		t.Fatalf("counter = %d, acknowledged = %d: a stale holder's write landed or an acknowledged one was lost", got.Value, acked.Load())
	}
	t.Logf("counter %d = acknowledged %d", got.Value, acked.Load())
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}
