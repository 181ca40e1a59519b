// Package tail tests dwk tail against a real 3-replica fleet: while load
// runs through every front door, one tail asked of one replica shows the
// requests every replica served, with what the worker logged, and a tail
// filtered by status shows only the failures.
package tail

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/server/tail"
	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/procs"
)

func TestTailShowsEveryReplica(t *testing.T) {
	project, err := filepath.Abs("testdata/echo/wrangler.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	f := fleettest.Start(t, fleettest.Options{Replicas: 3, Edit: func(_ int, c *config.Config) {
		c.Workers = []config.Worker{{Project: project, Routes: []string{"/"}}}
	}})
	admin := f.Replicas[0].Admin
	start := func(args ...string) *procs.Proc {
		args = append([]string{"tail", "echo", "--admin", admin, "--token", fleettest.AdminToken, "--duration", "40s"}, args...)
		return procs.Start(t, "dwk tail", procs.Binary(t), nil, args...)
	}
	all, failures := start(), start("--status", "error")

	// Load through every front door until the tail has seen every
	// replica serve, and a failure.
	members := map[string]bool{}
	for _, r := range f.Replicas {
		members[r.Member] = true
	}
	client := &http.Client{Timeout: 5 * time.Second}
	deadline := time.Now().Add(30 * time.Second)
	var events, failed []tail.Event
	for {
		var wg sync.WaitGroup
		for _, r := range f.Replicas {
			wg.Go(func() {
				for _, path := range []string{"/hello", "/fail"} {
					if resp, err := client.Get(r.Public + path); err == nil {
						resp.Body.Close()
					}
				}
			})
		}
		wg.Wait()
		events, failed = lines(t, all.Output()), lines(t, failures.Output())
		seen := map[string]bool{}
		for _, ev := range events {
			seen[ev.Member] = true
		}
		if len(seen) == len(members) && len(failed) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30s of load the tail saw members %v of %v and %d failures\n%s\n%s", seen, members, len(failed), all.Output(), f.Replicas[0].Proc.Output())
		}
		time.Sleep(200 * time.Millisecond)
	}
	all.Kill()
	failures.Kill()

	var logged bool
	for _, ev := range events {
		if !members[ev.Member] || ev.ScriptName != "echo" {
			t.Errorf("event from %q of %q: want a member of the fleet and the echo worker", ev.Member, ev.ScriptName)
		}
		if ev.Event.Request.Method != http.MethodGet || !strings.HasPrefix(ev.Event.Request.URL, "http") {
			t.Errorf("request %+v", ev.Event.Request)
		}
		path := ev.Event.Request.URL[strings.LastIndex(ev.Event.Request.URL, "/"):]
		want := "echo GET " + path
		logged = logged || slices.ContainsFunc(ev.Logs, func(l tail.Log) bool { return slices.Contains(l.Message, want) })
	}
	if !logged {
		t.Errorf("no event holds the worker's console.log line\n%s", all.Output())
	}
	for _, ev := range failed {
		if ev.Outcome != "exception" || ev.Event.Response.Status != http.StatusInternalServerError || !strings.HasSuffix(ev.Event.Request.URL, "/fail") {
			t.Errorf("the --status error tail got %s %d %s", ev.Outcome, ev.Event.Response.Status, ev.Event.Request.URL)
		}
		if !slices.ContainsFunc(ev.Logs, func(l tail.Log) bool {
			return l.Level == "error" && strings.Contains(strings.Join(l.Message, " "), "asked to fail")
		}) {
			t.Errorf("a failure's event lacks the uncaught exception: %+v", ev.Logs)
		}
	}
}

// lines parses the JSON event lines of a tail's output; other lines (its
// own messages) are skipped.
func lines(t *testing.T, out string) []tail.Event {
	t.Helper()
	var evs []tail.Event
	out = out[:strings.LastIndex(out, "\n")+1] // a line still being written waits
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "{") {
			continue
		}
		var ev tail.Event
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatalf("a tail line is not an event: %v\n%s", err, l)
		}
		if ev.ScriptName != "" {
			evs = append(evs, ev)
		}
	}
	return evs
}
