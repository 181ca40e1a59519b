package soak

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"
)

// Report renders the soak's tables: operations, then faults, with the
// longest request and the longest counter unavailability per fault kind
// (see counterLedger); times are offsets from start, the load's start.
func Report(start time.Time, l *Ledger, tl *Timeline, o Outcome, ld *Load) string {
	var sb strings.Builder
	w := tabwriter.NewWriter(&sb, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "operation\tattempted\tacknowledged\tfailed\tlost\tduplicated\t")
	l.mu.Lock()
	for _, op := range Ops {
		c := l.ops[op]
		var failed int64
		for _, n := range c.Failed {
			failed += n
		}
		lost := o.Lost[op]
		if op == OpGet {
			lost = ld.R2Lost.Load()
		}
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%d\t\n", op, c.Attempted, c.Acked, failed, lost, o.Duplicated[op])
	}
	l.mu.Unlock()
	fmt.Fprintf(w, "cron ticks\t%d\t%d\t%d\t-\t%d\t\n", o.TicksChecked, o.TicksChecked-missed(o), missed(o), len(o.TicksTwice))
	w.Flush()

	sb.WriteString("\n")
	w = tabwriter.NewWriter(&sb, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "fault\tinjected\tfailed requests\tlongest request\tlongest unavailable\tclosed-loop wait\tclosed-loop without object\tcron ticks missed\tfailures allowed\t")
	injected := tl.Count()
	failed := l.failedBy()
	requests, gaps, closed := l.longestRequests(), l.unavailable(), l.closedLoops()
	for _, f := range append([]Fault{None}, Faults...) {
		allowed := "yes"
		if !failuresAllowed(f) {
			allowed = "no (must be 0)"
		}
		inj := fmt.Sprint(injected[f])
		if f == None {
			inj = "-"
		}
		cw, cwo := "-", "-"
		if c, ok := closed[f]; ok {
			cw, cwo = c.Wait.Round(time.Millisecond).String(), c.Without.Round(time.Millisecond).String()
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%v\t%v\t%s\t%s\t%d\t%s\t\n", f, inj, failed[f],
			requests[f].D.Round(time.Millisecond), gaps[f].D.Round(time.Millisecond), cw, cwo, len(o.TicksMissed[f]), allowed)
	}
	w.Flush()
	for _, f := range append([]Fault{None}, Faults...) {
		if injected[f] > 0 || f == None {
			fmt.Fprintf(&sb, "%s: longest request %s; longest unavailable %s\n", f, requests[f].describe(start), gaps[f].describe(start))
		}
	}
	fmt.Fprintf(&sb, "\nincrements unanswered but landed: %d; WebSocket frames received: %d\n", o.UnknownLanded, ld.Received.Load())
	if len(o.TicksHandlerFailed) > 0 {
		fmt.Fprintf(&sb, "cron ticks claimed and run whose handler failed (not retried, by design): %v\n", o.TicksHandlerFailed)
	}
	l.mu.Lock()
	for _, f := range append([]Fault{None}, Faults...) {
		for _, s := range l.samples[f] {
			fmt.Fprintf(&sb, "failure during %s: %s\n", f, s)
		}
	}
	l.mu.Unlock()
	ld.lostMu.Lock()
	for _, s := range ld.lost {
		fmt.Fprintf(&sb, "R2 read lost: %s\n", s)
	}
	ld.lostMu.Unlock()
	if len(o.Violations) == 0 && ld.R2Lost.Load() == 0 {
		sb.WriteString("invariants: all hold\n")
	}
	for _, v := range o.Violations {
		fmt.Fprintf(&sb, "VIOLATION: %s\n", v)
	}
	return sb.String()
}

func missed(o Outcome) int {
	n := 0
	for _, ts := range o.TicksMissed {
		n += len(ts)
	}
	return n
}
