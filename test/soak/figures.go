package soak

import (
	"fmt"
	"time"

	"github.com/dwk/fleet/test/benchdocs"
)

// resultFigures are the figures docs quote from a soak result. Fault kinds
// and operations are keyed by benchdocs.Key of their names ("kill_9",
// "libsql_restart", "counter_increment", …):
//
//	run.duration run.seed run.replicas run.lease_ttl run.mode run.outcome run.command run.load_ran
//	faults.total faults.<kind>.injected faults.<kind>.failed faults.<kind>.ticks_missed
//	faults.<kind>.longest_request faults.<kind>.longest_unavailable
//	faults.<kind>.closed_loop_wait faults.<kind>.closed_loop_without_object
//	failed.total failed.in_faults failed.forbidden (with no fault or during rolling restarts)
//	ops.<op>.attempted|acknowledged|failed|lost|duplicated   lost.total
//	cron.checked cron.missed cron.twice cron.handler_failed
//	invariants.total invariants.held   unknown_landed
func resultFigures(r Result) map[string]benchdocs.Figure {
	count := func(n int64, unit string) benchdocs.Figure { return benchdocs.Count(float64(n), unit) }
	d, _ := time.ParseDuration(r.Options.Duration)
	ttl, _ := time.ParseDuration(r.Options.LeaseTTL)
	mode, outcome := "not strict", "failed"
	if r.Options.Strict {
		mode = "strict"
	}
	if r.Passed {
		outcome = "passed"
	}
	figs := map[string]benchdocs.Figure{
		"run.duration":   benchdocs.Text(spoken(d)),
		"run.seed":       benchdocs.Text(fmt.Sprint(r.Options.Seed)),
		"run.replicas":   benchdocs.Count(float64(r.Options.Replicas), "replicas"),
		"run.lease_ttl":  benchdocs.Duration(ttl),
		"run.mode":       benchdocs.Text(mode),
		"run.outcome":    benchdocs.Text(outcome),
		"run.command":    benchdocs.Text(fmt.Sprintf("`make soak DURATION=%s SEED=%d REPLICAS=%d`", compact(d), r.Options.Seed, r.Options.Replicas)),
		"run.load_ran":   benchdocs.Duration(seconds(r.LoadRanS)),
		"unknown_landed": count(r.UnknownLanded, "increments"),
	}
	var injected, failed, inFaults int64
	for f, c := range r.Faults {
		k := "faults." + benchdocs.Key(string(f))
		failed += c.FailedRequests
		if f != None {
			injected += int64(c.Injected)
			figs[k+".injected"] = count(int64(c.Injected), "faults")
		}
		if c.FailuresAllowed {
			inFaults += c.FailedRequests
		}
		figs[k+".failed"] = count(c.FailedRequests, "requests")
		figs[k+".ticks_missed"] = count(int64(c.CronTicksMissed), "ticks")
		figs[k+".longest_request"] = benchdocs.Duration(seconds(c.LongestRequestS))
		figs[k+".longest_unavailable"] = benchdocs.Duration(seconds(c.LongestUnavailableS))
		if f != None {
			figs[k+".closed_loop_wait"] = benchdocs.Duration(seconds(c.ClosedLoopWaitS))
			figs[k+".closed_loop_without_object"] = benchdocs.Duration(seconds(c.ClosedLoopWithoutS))
		}
	}
	figs["faults.total"] = count(injected, "faults")
	figs["failed.total"] = count(failed, "requests")
	figs["failed.in_faults"] = count(inFaults, "requests")
	figs["failed.forbidden"] = count(failed-inFaults, "requests")
	var lost int64
	for op, c := range r.Operations {
		k := "ops." + benchdocs.Key(string(op))
		figs[k+".attempted"] = count(c.Attempted, "")
		figs[k+".acknowledged"] = count(c.Acknowledged, "")
		figs[k+".failed"] = count(c.Failed, "")
		figs[k+".lost"] = count(c.Lost, "")
		figs[k+".duplicated"] = count(c.Duplicated, "")
		lost += c.Lost
	}
	figs["lost.total"] = count(lost, "")
	figs["cron.checked"] = count(int64(r.Cron.Checked), "ticks")
	figs["cron.missed"] = count(int64(r.Cron.Missed), "ticks")
	figs["cron.twice"] = count(int64(r.Cron.RanTwice), "ticks")
	figs["cron.handler_failed"] = count(int64(r.Cron.HandlerFailed), "ticks")
	var held int64
	for _, inv := range r.Invariants {
		if inv.Held {
			held++
		}
	}
	figs["invariants.total"] = count(int64(len(r.Invariants)), "invariants")
	figs["invariants.held"] = count(held, "invariants")
	return figs
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// spoken writes a run's length the way prose does: "10 minutes", "90
// seconds", "1 hour".
func spoken(d time.Duration) string {
	plural := func(n int64, unit string) string {
		if n == 1 {
			return "1 " + unit
		}
		return fmt.Sprintf("%d %ss", n, unit)
	}
	switch {
	case d%time.Hour == 0:
		return plural(int64(d/time.Hour), "hour")
	case d%time.Minute == 0:
		return plural(int64(d/time.Minute), "minute")
	default:
		return plural(int64(d/time.Second), "second")
	}
}

// compact writes a duration as make soak takes it: "10m", "90s", "1h".
func compact(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	default:
		return fmt.Sprintf("%ds", d/time.Second)
	}
}
