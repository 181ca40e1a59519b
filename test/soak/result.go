package soak

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/dwk/fleet/test/benchdocs"
)

// Result is the record of one soak run that scripts/soak.sh keeps in
// bench/soak-<duration>-<seed>.json: the run's options, the fault schedule
// with the failures blamed on each fault, counts per fault kind and per
// operation, every invariant with its outcome, and the figures docs quote
// from it (package test/benchdocs).
type Result struct {
	Options   ResultOptions `json:"options"`
	Go        string        `json:"go"`
	CPUs      int           `json:"cpus"`
	StartedAt string        `json:"started_at"`
	// LoadRanS is how long the load ran, in seconds.
	LoadRanS float64 `json:"load_ran_s"`
	// Passed is true when every enforced invariant held.
	Passed bool `json:"passed"`
	// Schedule lists the faults in the order they were injected.
	Schedule []ScheduledFault `json:"schedule"`
	// Faults counts by fault kind, "none" included (no fault active).
	Faults map[Fault]FaultCount `json:"faults"`
	// Operations counts by operation.
	Operations map[Op]OpCount `json:"operations"`
	Cron       CronCount      `json:"cron"`
	// UnknownLanded counts increments whose answer was lost but that landed.
	UnknownLanded int64       `json:"unknown_landed"`
	Invariants    []Invariant `json:"invariants"`
	Violations    []string    `json:"violations"`
	// Samples are up to five failure messages per fault kind.
	Samples map[Fault][]string          `json:"samples"`
	Figures map[string]benchdocs.Figure `json:"figures"`
}

// ResultOptions are the options a run used.
type ResultOptions struct {
	Duration string `json:"duration"`
	Seed     uint64 `json:"seed"`
	Replicas int    `json:"replicas"`
	LeaseTTL string `json:"lease_ttl"`
	Strict   bool   `json:"strict"`
	Random   bool   `json:"random"`
	// FaultKinds are the kinds the run could inject: all of them, or all
	// but the network faults where network namespaces are not permitted.
	FaultKinds []Fault `json:"fault_kinds"`
}

// ScheduledFault is one injected fault: when it started and ended, from
// the start of the load, and how many requests failed with it blamed.
type ScheduledFault struct {
	Kind   Fault   `json:"kind"`
	Detail string  `json:"detail"`
	StartS float64 `json:"start_s"`
	EndS   float64 `json:"end_s"`
	Failed int64   `json:"failed_requests"`
}

// FaultCount is what one kind of fault did over the run.
type FaultCount struct {
	Injected        int   `json:"injected"`
	FailedRequests  int64 `json:"failed_requests"`
	CronTicksMissed int   `json:"cron_ticks_missed"`
	// FailuresAllowed is false for "none" and graceful rolling restarts:
	// no request may fail then (enforced in strict runs).
	FailuresAllowed bool `json:"failures_allowed"`
	// LongestRequestS is the longest request, answered or failed, that
	// this kind was blamed for (the most disruptive fault whose window,
	// with the tail, overlaps it), in seconds; LongestRequest says which.
	LongestRequestS float64 `json:"longest_request_s"`
	LongestRequest  string  `json:"longest_request"`
	// LongestUnavailableS is the longest time, in seconds, from sending an
	// increment of a counter until that counter next acknowledged one,
	// over the waits this kind was blamed for: how long a client that
	// kept incrementing it could not. LongestUnavailable says which
	// counter, and when.
	LongestUnavailableS float64 `json:"longest_unavailable_s"`
	// ClosedLoopWaitS is the longest wait, in seconds, for any one request
	// of this kind's closed-loop clients: one client per fault, sending
	// one increment at a time of its own counter (first placed on the
	// victim) through another replica's front door, while the fault and
	// its tail last. ClosedLoopWithoutS is the longest time such a client
	// was without its object: from a request that failed until the next
	// acknowledged one. ClosedLoopRequests and ClosedLoopFailed count
	// their requests.
	ClosedLoopWaitS    float64 `json:"closed_loop_wait_s"`
	ClosedLoopWithoutS float64 `json:"closed_loop_without_object_s"`
	ClosedLoopRequests int     `json:"closed_loop_requests"`
	ClosedLoopFailed   int     `json:"closed_loop_failed"`
	LongestUnavailable string  `json:"longest_unavailable"`
}

// OpCount is what happened to one kind of operation.
type OpCount struct {
	Attempted    int64           `json:"attempted"`
	Acknowledged int64           `json:"acknowledged"`
	Failed       int64           `json:"failed"`
	FailedBy     map[Fault]int64 `json:"failed_by"`
	Lost         int64           `json:"lost"`
	Duplicated   int64           `json:"duplicated"`
}

// CronCount is what the cron check found.
type CronCount struct {
	Checked       int `json:"checked"`
	Missed        int `json:"missed"`
	RanTwice      int `json:"ran_twice"`
	HandlerFailed int `json:"handler_failed"`
}

// Invariant is one property the soak checks and whether it held.
type Invariant struct {
	Name string `json:"name"`
	Held bool   `json:"held"`
	// Enforced is false for availability invariants in a run that is not
	// strict: they are reported, not failed on.
	Enforced bool `json:"enforced"`
	// Violations counts the cases that broke it.
	Violations int64 `json:"violations"`
}

// result gathers a run's record.
func result(o Options, kinds []Fault, started time.Time, loadRan time.Duration, l *Ledger, tl *Timeline, out Outcome, ld *Load) Result {
	r := Result{
		Options: ResultOptions{Duration: o.Duration.String(), Seed: o.Seed, Replicas: o.Replicas,
			LeaseTTL: o.LeaseTTL.String(), Strict: o.Strict, Random: o.Random, FaultKinds: kinds},
		Go: runtime.Version(), CPUs: runtime.NumCPU(), StartedAt: started.UTC().Format(time.RFC3339),
		LoadRanS: loadRan.Seconds(), Faults: map[Fault]FaultCount{}, Operations: map[Op]OpCount{},
		UnknownLanded: out.UnknownLanded, Violations: out.Violations, Samples: map[Fault][]string{},
	}
	byWindow := l.failedByWindow()
	for i, w := range tl.snapshotWindows() {
		r.Schedule = append(r.Schedule, ScheduledFault{Kind: w.kind, Detail: w.detail,
			StartS: w.start.Sub(started).Seconds(), EndS: w.end.Sub(started).Seconds(), Failed: byWindow[i]})
	}
	injected, failed := tl.Count(), l.failedBy()
	requests, gaps, closed := l.longestRequests(), l.unavailable(), l.closedLoops()
	for _, f := range append([]Fault{None}, Faults...) {
		cl := closed[f]
		r.Faults[f] = FaultCount{ClosedLoopWaitS: cl.Wait.Seconds(), ClosedLoopWithoutS: cl.Without.Seconds(),
			ClosedLoopRequests: cl.Requests, ClosedLoopFailed: cl.Failed, Injected: injected[f], FailedRequests: failed[f], CronTicksMissed: len(out.TicksMissed[f]),
			FailuresAllowed: failuresAllowed(f),
			LongestRequestS: requests[f].D.Seconds(), LongestRequest: requests[f].describe(started),
			LongestUnavailableS: gaps[f].D.Seconds(), LongestUnavailable: gaps[f].describe(started)}
	}
	l.mu.Lock()
	for _, op := range Ops {
		c := l.ops[op]
		oc := OpCount{Attempted: c.Attempted, Acknowledged: c.Acked, FailedBy: map[Fault]int64{},
			Lost: out.Lost[op], Duplicated: out.Duplicated[op]}
		for f, n := range c.Failed {
			oc.Failed += n
			oc.FailedBy[f] = n
		}
		if op == OpGet {
			oc.Lost = ld.R2Lost.Load()
		}
		r.Operations[op] = oc
	}
	for f, s := range l.samples {
		r.Samples[f] = append([]string(nil), s...)
	}
	l.mu.Unlock()
	r.Cron = CronCount{Checked: out.TicksChecked, Missed: missed(out), RanTwice: len(out.TicksTwice), HandlerFailed: len(out.TicksHandlerFailed)}
	r.Invariants = invariants(o.Strict, out, failed, ld.R2Lost.Load())
	r.Passed = true
	for _, inv := range r.Invariants {
		if inv.Enforced && !inv.Held {
			r.Passed = false
		}
	}
	r.Figures = resultFigures(r)
	return r
}

// invariants lists SPEC §8's invariants as the soak checks them.
func invariants(strict bool, o Outcome, failed map[Fault]int64, r2Lost int64) []Invariant {
	inv := func(name string, enforced bool, n int64) Invariant {
		return Invariant{Name: name, Held: n == 0, Enforced: enforced, Violations: n}
	}
	return []Invariant{
		inv("every acknowledged increment is in its counter", true, o.Lost[OpIncrement]),
		inv("no counter holds more than its acknowledged and unanswered increments (no stale-epoch or doubled write)", true, o.Overcounted),
		inv("every acknowledged chat message reaches the queue consumer", true, o.Lost[OpMessage]),
		inv("every acknowledged R2 put reads back the same bytes", true, o.Lost[OpPut]+r2Lost),
		inv("every acknowledged alarm fires", true, o.Lost[OpAlarm]),
		inv("no cron tick runs twice", true, int64(len(o.TicksTwice))),
		inv("every missed cron tick is explained by a fault that allows it", true, o.TicksUnexplained),
		inv("the checks could read the fleet's state", true, o.Unreadable),
		inv("no request fails with no fault active", strict, failed[None]),
		inv("no request fails during a graceful rolling restart", strict, failed[Rolling]),
	}
}

// WriteResult writes r as indented JSON to path.
func WriteResult(path string, r Result) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write soak result: %w", err)
	}
	return nil
}
