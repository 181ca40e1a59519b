package fleet

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/dwk/fleet/test/fleettest"
)

// Bounds of a closed-loop client through another front door while an
// object's holder stops keeping its lease (frozen, or deposed by its
// peers), at default settings: no request waits longer than maxWait, and
// an increment succeeds again within regainBound of the fault.
const (
	maxWait     = 5 * time.Second
	regainBound = 3500 * time.Millisecond
)

// closedLoop sends increments to one object one at a time, each as soon
// as the previous one ended, and records every acknowledged value.
type closedLoop struct {
	all   []attempt
	acked []int64 // values acknowledged, in order
	done  chan struct{}
	ended chan struct{}
}

// startClosedLoop starts the client on url. Its requests time out at
// three times maxWait, so a hung request shows as a long one.
func startClosedLoop(url string) *closedLoop {
	l := &closedLoop{done: make(chan struct{}), ended: make(chan struct{})}
	c := &http.Client{Timeout: 3 * maxWait}
	go func() {
		defer close(l.ended)
		for {
			select {
			case <-l.done:
				return
			default:
			}
			a := attempt{start: time.Now()}
			if resp, err := c.Post(url, "", nil); err == nil {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				a.status, a.member = resp.StatusCode, resp.Header.Get("X-Dwk-Member")
				var v struct{ Value int64 }
				if a.status == http.StatusOK && json.Unmarshal(b, &v) == nil {
					l.acked = append(l.acked, v.Value)
				}
			}
			a.end = time.Now()
			l.all = append(l.all, a)
		}
	}()
	return l
}

// stop ends the client, waiting for its request in flight.
func (l *closedLoop) stop() {
	close(l.done)
	<-l.ended
}

// longest is the longest request.
func (l *closedLoop) longest() time.Duration {
	var d time.Duration
	for _, a := range l.all {
		d = max(d, a.end.Sub(a.start))
	}
	return d
}

// regained is how long after t the first request acknowledged by a member
// other than gone ended; -1 if none did.
func (l *closedLoop) regained(t time.Time, gone string) time.Duration {
	for _, a := range l.all {
		if a.end.After(t) && a.status == http.StatusOK && a.member != gone {
			return a.end.Sub(t)
		}
	}
	return -1
}

// checkNothingLost fails t unless every acknowledged value is distinct
// and at most final: an increment acknowledged with value v is one of the
// first v, so a lost one shows as a repeated value or a final value below
// an acknowledged one.
func checkNothingLost(t *testing.T, acked []int64, final int64) {
	t.Helper()
	seen := make(map[int64]bool, len(acked))
	for _, v := range acked {
		if seen[v] {
			t.Errorf("value %d acknowledged twice: an acknowledged increment was lost", v)
		}
		seen[v] = true
		if v > final {
			t.Errorf("value %d acknowledged, but the final value is %d", v, final)
		}
	}
	if int64(len(acked)) > final {
		t.Errorf("%d increments acknowledged, final value %d", len(acked), final)
	}
}

// TestFrozenHolderClosedLoop freezes (SIGSTOP) an object's holder while a
// closed-loop client sends increments to it through another front door,
// at default settings: the forward outstanding at the freeze ends when
// the holder's lease lapses, not at the forward deadline, and the client
// has its object again soon after.
func TestFrozenHolderClosedLoop(t *testing.T) {
	f := fleettest.Start(t, fleettest.Options{})
	name := "closed-loop-freeze"
	holder, via := holderAndOther(t, f, name)
	load := startClosedLoop(via.Public + "/counter/" + name + "/increment")
	time.Sleep(500 * time.Millisecond) // the load runs before the fault
	frozen := time.Now()
	holder.Pause()
	time.Sleep(regainBound + 2*time.Second)
	load.stop()
	holder.Resume()

	regained := load.regained(frozen, holder.Member)
	t.Logf("%d requests, %d acknowledged; longest wait %v; object again %v after the freeze",
		len(load.all), len(load.acked), load.longest().Round(time.Millisecond), regained.Round(time.Millisecond))
	if load.longest() > maxWait {
		t.Errorf("a request waited %v; want at most %v", load.longest(), maxWait)
	}
	if regained < 0 || regained > regainBound {
		t.Errorf("object again %v after the freeze; want within %v", regained, regainBound)
	}
	var got struct{ Value int64 }
	if _, _, err := get(via.Public+"/counter/"+name, &got); err != nil {
		t.Fatal(err)
	}
	checkNothingLost(t, append([]int64{1}, load.acked...), got.Value)
}
