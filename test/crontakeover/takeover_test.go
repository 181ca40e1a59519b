package crontakeover

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/wait"
)

// every is the project's schedule; a tick's grace window ends at the next.
const (
	every    = 20 * time.Second
	schedule = "*/20 * * * * *"
	// handlerSleep is how long the scheduled handler runs: long enough to
	// see its start record and kill its replica during it, even when a
	// loaded machine takes seconds to load the project for the tick.
	handlerSleep = 10 * time.Second
)

// project is a Workers project whose scheduled handler records its start
// in KV, sleeps, and records its end; GET /ticks/ lists the records.
var project = map[string]string{
	"wrangler.jsonc": `{
	"name": "ticks",
	"main": "src/index.js",
	"compatibility_date": "2025-09-15",
	"kv_namespaces": [{ "binding": "LOG", "id": "tickslog" }],
	"triggers": { "crons": ["` + schedule + `"] },
}`,
	"src/index.js": `export default {
	async scheduled(controller, env) {
		const id = crypto.randomUUID();
		await env.LOG.put("start/" + controller.scheduledTime + "/" + id, String(Date.now()));
		await new Promise((resolve) => setTimeout(resolve, ` + strconv.Itoa(int(handlerSleep.Milliseconds())) + `));
		await env.LOG.put("done/" + controller.scheduledTime + "/" + id, String(Date.now()));
	},
	async fetch(request, env) {
		const out = {};
		let cursor;
		do {
			const page = await env.LOG.list({ cursor });
			for (const k of page.keys) out[k.name] = Number(await env.LOG.get(k.name));
			cursor = page.list_complete ? undefined : page.cursor;
		} while (cursor);
		return Response.json(out);
	},
};
`,
}

// records are one tick's KV records: the start and done times (Unix ms,
// by the replica's clock) of each run.
type records struct{ starts, dones []int64 }

func ticks(door string, tick time.Time) (records, error) {
	resp, err := http.Get(door + "/ticks/")
	if err != nil {
		return records{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return records{}, fmt.Errorf("GET /ticks/: %s", resp.Status)
	}
	var all map[string]int64
	if err := json.NewDecoder(resp.Body).Decode(&all); err != nil {
		return records{}, err
	}
	var r records
	ms := strconv.FormatInt(tick.UnixMilli(), 10)
	for k, v := range all {
		switch {
		case strings.HasPrefix(k, "start/"+ms+"/"):
			r.starts = append(r.starts, v)
		case strings.HasPrefix(k, "done/"+ms+"/"):
			r.dones = append(r.dones, v)
		}
	}
	return r, nil
}

func runs(r *fleettest.Replica, result string) float64 {
	v, _ := r.Metric(fmt.Sprintf(`dwk_cron_ticks_total{member=%q,result=%q}`, r.Member, result))
	return v
}

// TestTickOfAKilledWinnerIsTakenOver kills, with SIGKILL, the replica
// that won a tick while its handler runs: another replica runs the tick
// within its grace window (before the next tick) and records it done, and
// the third replica does not run it again.
func TestTickOfAKilledWinnerIsTakenOver(t *testing.T) {
	dir := t.TempDir()
	for name, body := range project {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := fleettest.Start(t, fleettest.Options{Edit: func(_ int, c *config.Config) {
		c.Workers = []config.Worker{{Project: dir, Routes: []string{"/ticks/"}}}
	}})
	// Every replica serves the project's routes before the tick, so that
	// reading the records later does not wait for a project to load.
	for _, r := range f.Replicas {
		wait.Within(t, 30*time.Second, "replica "+r.Member+" to serve the tick records", func() bool {
			_, err := ticks(r.Public, time.Now())
			return err == nil
		})
	}
	// The first tick at least 2s away, so that every replica evaluates it.
	tick := time.Now().Add(2 * time.Second).Truncate(every).Add(every)
	base := map[string]float64{}
	for _, r := range f.Replicas {
		base[r.Member] = runs(r, "run")
	}
	var winner *fleettest.Replica
	wait.Within(t, time.Until(tick)+10*time.Second, "a replica to win the tick", func() bool {
		for _, r := range f.Replicas {
			if runs(r, "run") > base[r.Member] {
				winner = r
				return true
			}
		}
		return false
	})
	var door *fleettest.Replica
	for _, r := range f.Replicas {
		if r != winner {
			door = r
			break
		}
	}
	// Killed once its handler recorded its start, during its sleep.
	wait.Within(t, handlerSleep*4/5, "the winner's handler to record its start", func() bool {
		got, err := ticks(door.Public, tick)
		return err == nil && len(got.starts) > 0
	})
	winner.Kill()
	killed := time.Now()
	// The killed winner had not finished: no done record.
	var got records
	wait.Within(t, every+handlerSleep, "the tick to be taken over and done", func() bool {
		var err error
		got, err = ticks(door.Public, tick)
		return err == nil && len(got.dones) > 0
	})
	t.Logf("winner %s killed %v after the tick; runs started at %v; done at %v (ms after the tick)",
		winner.Member, killed.Sub(tick).Round(time.Millisecond), since(tick, got.starts), since(tick, got.dones))
	if len(got.starts) != 2 || len(got.dones) != 1 {
		t.Fatalf("the tick started %d times and finished %d times; want 2 starts (the killed winner, the takeover) and 1 finish", len(got.starts), len(got.dones))
	}
	last := max(got.starts[0], got.starts[1])
	if end := tick.Add(every).UnixMilli(); last >= end {
		t.Errorf("the takeover started %d ms after the tick, past its grace window of %v", last-tick.UnixMilli(), every)
	}
	var takenOver float64
	for _, r := range f.Replicas {
		if r != winner {
			takenOver += runs(r, "taken_over")
		}
	}
	if takenOver != 1 {
		t.Errorf("dwk_cron_ticks_total{result=taken_over} = %v across the survivors, want 1", takenOver)
	}
	// The survivor that lost the tick again asks every 5s until the grace
	// window ends; the done record must keep it from running the tick.
	time.Sleep(time.Until(tick.Add(every))) // the window's end is what is tested
	if again, err := ticks(door.Public, tick); err != nil || len(again.starts) != 2 {
		t.Errorf("after the tick's grace window: %+v, %v; want the 2 starts seen before", again, err)
	}
}

// since returns each Unix ms time as ms after tick.
func since(tick time.Time, ms []int64) []int64 {
	out := make([]int64, len(ms))
	for i, m := range ms {
		out[i] = m - tick.UnixMilli()
	}
	return out
}
