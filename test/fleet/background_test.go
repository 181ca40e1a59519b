package fleet

import (
	"fmt"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/wait"
)

// TestCronOncePerTick runs a one-second schedule on 3 replicas for about 20
// ticks and kills one partway: each tick runs once fleet-wide. The victim
// holds the object that records the ticks, so the ticks after the kill
// record themselves only because a stub's Fetch waits for a moving object
// (the handler is not retried).
func TestCronOncePerTick(t *testing.T) {
	f := fleettest.Start(t, fleettest.Options{Edit: func(_ int, c *config.Config) {
		c.Workers[0].Crons = []string{"* * * * * *"} // every second (6-field form)
	}})
	start := time.Now()
	time.Sleep(8 * time.Second)
	var ticks map[string]int64
	_, holder, err := get(f.Replicas[0].Public+"/counter/_cron/ticks", &ticks)
	if err != nil {
		t.Fatal(err)
	}
	victim, reader := f.Replicas[0], f.Replicas[1]
	for _, r := range f.Replicas {
		if r.Member == holder {
			victim = r
		}
	}
	if victim == reader {
		reader = f.Replicas[0]
	}
	victim.Kill()
	killedAt := time.Now().Unix()
	time.Sleep(12 * time.Second)
	end := time.Now()
	if _, _, err := get(reader.Public+"/counter/_cron/ticks", &ticks); err != nil {
		t.Fatal(err)
	}
	var missing []int64
	for s := start.Unix() + 2; s < end.Unix()-1; s++ {
		runs := ticks[strconv.FormatInt(s, 10)]
		switch {
		case runs > 1:
			t.Errorf("tick %d ran %d times", s, runs)
		case runs == 0:
			missing = append(missing, s)
		}
	}
	// A replica killed after it won a tick and before the tick finished
	// takes that one tick with it (the tick lease is never re-granted, so a
	// tick never runs twice). Any other gap is a failure.
	for _, s := range missing {
		if s < killedAt-1 || s > killedAt+1 {
			t.Errorf("tick %d did not run (kill at %d)", s, killedAt)
		}
	}
	if len(missing) > 1 {
		t.Errorf("%d ticks missing: %v", len(missing), missing)
	}
	t.Logf("%d ticks recorded over %v, each once; %s, the ticks' object's holder, killed; missing around the kill: %v",
		len(ticks), end.Sub(start).Round(time.Second), victim.Member, missing)
}

// TestQueueDeliveryUnderKills sends 10,000 chat messages (each queues a
// notification) while replicas, which all consume the queue, are killed
// and restarted: every acknowledged message is delivered at least once.
func TestQueueDeliveryUnderKills(t *testing.T) {
	const total = 10000
	f := fleettest.Start(t, fleettest.Options{Edit: func(_ int, c *config.Config) {
		for i := range c.Workers[1].Consumers {
			c.Workers[1].Consumers[i].MaxBatchSize = 100
			c.Workers[1].Consumers[i].MaxBatchTimeout = config.Duration(200 * time.Millisecond)
			c.Workers[1].Consumers[i].VisibilityTimeout = config.Duration(5 * time.Second)
		}
	}})
	var (
		mu    sync.Mutex
		acked = map[int64]bool{}
		sent  = make(chan int, total)
		wg    sync.WaitGroup
	)
	for i := range total {
		sent <- i
	}
	close(sent)
	front := f.Replicas[0].Public
	for w := range 24 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range sent {
				// Replica 0 stays up; the others consume and get killed.
				var m struct{ ID int64 }
				url := fmt.Sprintf("%s/chat/rooms/q%d/messages", front, (w+i)%50)
				if _, _, err := postJSON(url, map[string]string{"user": "load", "text": strconv.Itoa(i)}, &m); err == nil {
					mu.Lock()
					acked[m.ID] = true
					mu.Unlock()
				}
			}
		}()
	}
	// Kill and restart consumers while the load runs.
	for _, k := range []int{1, 2} {
		time.Sleep(3 * time.Second)
		f.Replicas[k].Kill()
		time.Sleep(time.Second)
		f.Replicas[k].Start()
	}
	wg.Wait()
	t.Logf("%d of %d sends acknowledged", len(acked), total)
	var st struct {
		Messages, Notifications, Deliveries int64
		Undelivered                         []int64
	}
	wait.Within(t, 120*time.Second, "every acknowledged message delivered", func() bool {
		if _, _, err := get(f.Replicas[0].Public+"/chat/stats", &st); err != nil {
			return false
		}
		for _, id := range st.Undelivered {
			if acked[id] {
				return false
			}
		}
		return len(st.Undelivered) < 1000
	})
	var lost []int64
	for _, id := range st.Undelivered {
		if acked[id] {
			lost = append(lost, id)
		}
	}
	sort.Slice(lost, func(i, j int) bool { return lost[i] < lost[j] })
	if len(lost) > 0 {
		t.Fatalf("%d acknowledged messages never delivered: %v", len(lost), lost)
	}
	t.Logf("messages %d, delivered %d, deliveries %d: %d duplicates", st.Messages, st.Notifications, st.Deliveries, st.Deliveries-st.Notifications)
}
