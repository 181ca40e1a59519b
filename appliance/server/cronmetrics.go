package server

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/dwk/fleet/appliance/bindings/cron"
	"github.com/dwk/fleet/appliance/process/metrics"
)

// cronMetrics exports the cron scheduler's tick counts: run here, won by
// another replica, claimed late (after the coordination store came back)
// and missed (the claim kept failing past the tick's grace window).
func cronMetrics(m *metrics.Metrics, member string, s *cron.Scheduler) {
	const help = "Cron ticks this replica evaluated, by result: run (won and run here), lost (another replica won), late (claimed after failed attempts, within the tick's grace window), missed (every claim failed until the window ended), taken_over (run here after the winner's claim lapsed), lapsed (this replica's claim lapsed and another replica took the tick over)."
	for result, f := range map[string]func(cron.SchedulerStats) int64{
		"run":        func(st cron.SchedulerStats) int64 { return st.Runs },
		"lost":       func(st cron.SchedulerStats) int64 { return st.Lost },
		"late":       func(st cron.SchedulerStats) int64 { return st.LateClaims },
		"missed":     func(st cron.SchedulerStats) int64 { return st.Missed },
		"taken_over": func(st cron.SchedulerStats) int64 { return st.TakenOver },
		"lapsed":     func(st cron.SchedulerStats) int64 { return st.Lapsed },
	} {
		m.CounterFunc("dwk_cron_ticks_total", help, prometheus.Labels{"member": member, "result": result},
			func() float64 { return float64(f(s.Stats())) })
	}
}
