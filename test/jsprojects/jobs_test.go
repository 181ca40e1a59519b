package jsprojects

import (
	"reflect"
	"testing"
	"time"

	"github.com/dwk/fleet/test/wait"
)

// ledger is what /jobs/ledger reports: per job, the attempts its
// deliveries carried, their encodings, and how often it was acked and
// dead-lettered.
type ledger struct {
	Attempts  map[string][]int
	Encodings map[string][]string
	Acked     map[string]int
	Dead      map[string]int
}

// testJobs drives the queue app: jobs sent one by one and in a batch, as
// JSON and as text, some failing until retried and some always, so that
// they end in the dead-letter queue; and the cron trigger's ticks.
func testJobs(t *testing.T, s *site) {
	jobs := func(i int, path string) string { return s.url(i, "/jobs"+path) }
	do(t, "POST", jobs(0, "/send"), map[string]any{"id": "ok-json", "failures": 0}).want(t, 202, "send")
	do(t, "POST", jobs(1, "/send"), map[string]any{"id": "ok-text", "failures": 0, "as": "text"}).want(t, 202, "send text")
	do(t, "POST", jobs(1, "/batch"), map[string]any{"jobs": []map[string]any{
		{"id": "retry-once", "failures": 1},
		{"id": "retry-twice", "failures": 2, "as": "text"},
		{"id": "dead-json", "failures": "always"},
		{"id": "dead-text", "failures": "always", "as": "text"},
	}}).want(t, 202, "sendBatch")
	do(t, "POST", jobs(0, "/send"), map[string]any{"id": "bad id!", "failures": 0}).want(t, 400, "an invalid job")

	// max_retries is 2: a job is delivered at most three times.
	want := ledger{
		Attempts: map[string][]int{
			"ok-json": {1}, "ok-text": {1}, "retry-once": {1, 2}, "retry-twice": {1, 2, 3}, "dead-json": {1, 2, 3}, "dead-text": {1, 2, 3},
		},
		Encodings: map[string][]string{
			"ok-json": {"json"}, "ok-text": {"text"}, "retry-once": {"json", "json"}, "retry-twice": {"text", "text", "text"},
			"dead-json": {"json", "json", "json"}, "dead-text": {"text", "text", "text"},
		},
		Acked: map[string]int{"ok-json": 1, "ok-text": 1, "retry-once": 1, "retry-twice": 1},
		Dead:  map[string]int{"dead-json": 1, "dead-text": 1},
	}
	var got ledger
	wait.Within(t, 90*time.Second, "every job to be acked or dead-lettered", func() bool {
		got = ledger{}
		do(t, "GET", jobs(0, "/ledger"), nil).want(t, 200, "ledger").json(t, &got)
		return len(got.Acked)+len(got.Dead) >= 6
	})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ledger:\n got %+v\nwant %+v", got, want)
	}

	t.Run("cron", func(t *testing.T) {
		type tick struct {
			Time int64
			Cron string
		}
		var ticks []tick
		wait.Within(t, 30*time.Second, "three cron ticks", func() bool {
			ticks = nil
			do(t, "GET", jobs(1, "/ticks"), nil).want(t, 200, "ticks").json(t, &ticks)
			return len(ticks) >= 3
		})
		for i, tk := range ticks {
			if tk.Cron != "*/2 * * * * *" || tk.Time%2000 != 0 {
				t.Errorf("tick %d = %+v, want one of */2 * * * * * on an even second", i, tk)
			}
			if i > 0 && tk.Time <= ticks[i-1].Time {
				// Two ticks of one scheduled time: the trigger ran twice (on two replicas).
				t.Errorf("tick %d at %d after tick %d at %d: want every scheduled time once", i, tk.Time, i-1, ticks[i-1].Time)
			}
		}
		if last := time.UnixMilli(ticks[len(ticks)-1].Time); time.Since(last) > time.Minute || time.Until(last) > 2*time.Second {
			t.Errorf("the last tick's scheduled time %v is not about now", last)
		}
	})
}
