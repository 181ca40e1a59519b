package soak

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestResultCountsAddUp: a result's fault counts, failures per window and
// figures agree with the ledger and the timeline they come from, and a
// result with a broken enforced invariant has not passed.
func TestResultCountsAddUp(t *testing.T) {
	tl := &Timeline{}
	l := NewLedger(tl)
	start := time.Now()
	boom := errors.New("boom")
	l.record(OpRead, start, nil)
	l.record(OpRead, start, boom) // no fault active
	end := tl.Begin(Kill, "kill -9 r1, down 1s")
	l.record(OpIncrement, time.Now(), boom)
	l.record(OpIncrement, time.Now(), boom)
	end()
	end = tl.Begin(LibSQL, "libSQL restart, down 2s")
	l.record(OpMessage, time.Now(), boom)
	end()
	out := Outcome{Lost: map[Op]int64{}, Duplicated: map[Op]int64{OpMessage: 3}, TicksMissed: map[Fault][]int64{LibSQL: {1, 2}}, TicksChecked: 10}
	ld := &Load{}
	o := Options{Duration: time.Minute, Seed: 7, Replicas: 3, LeaseTTL: 2 * time.Second, Strict: true}

	r := result(o, Faults, start, time.Minute, l, tl, out, ld)
	if len(r.Schedule) != 2 || r.Schedule[0].Failed != 2 || r.Schedule[1].Failed != 1 {
		t.Errorf("schedule = %+v, want 2 failures in the kill window, 1 in the libSQL one", r.Schedule)
	}
	figs := r.Figures
	for k, want := range map[string]string{
		"faults.total": "2", "faults.kill_9.injected": "1", "faults.libsql_restart.injected": "1",
		"faults.kill_9.failed": "2", "faults.none.failed": "1", "failed.total": "4", "failed.in_faults": "3",
		"failed.forbidden": "1", "ops.chat_message_d1_queue.duplicated": "3", "cron.missed": "2",
		"run.duration": "1 minute", "run.mode": "strict", "run.outcome": "failed",
		"run.command": "`make soak DURATION=1m SEED=7 REPLICAS=3`", "invariants.held": "9", "invariants.total": "10",
	} {
		if got := figs[k].Text; got != want {
			t.Errorf("figure %s = %q, want %q", k, got, want)
		}
	}
	if r.Passed {
		t.Error("a strict run with a request failed with no fault active passed")
	}

	path := filepath.Join(t.TempDir(), "soak-1m-7.json")
	if err := WriteResult(path, r); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var back Result
	if err := json.Unmarshal(data, &back); err != nil || back.Faults[Kill].FailedRequests != 2 {
		t.Errorf("read back: %+v, %v", back.Faults, err)
	}
}
