package soak

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/dwk/fleet/test/lbclient"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Outcome is what the invariant checks found.
type Outcome struct {
	// Lost counts acknowledged operations whose effect is missing, per
	// operation. Every entry must be 0.
	Lost map[Op]int64
	// Duplicated counts effects beyond the first: queue deliveries past
	// one per message, alarm firings past one per alarm.
	Duplicated map[Op]int64
	// Unknown counts increments whose outcome the client never learned
	// (the connection broke) and that did land.
	UnknownLanded int64
	// TicksChecked is the number of cron ticks in the checked range;
	// TicksMissed counts ticks that never ran, by the fault that explains
	// them; TicksTwice counts ticks that ran more than once.
	TicksChecked int
	TicksMissed  map[Fault][]int64
	TicksTwice   []int64
	// TicksHandlerFailed are missed ticks that were claimed and run, but
	// whose handler failed (the scheduler does not retry a tick): the
	// replica logs say so.
	TicksHandlerFailed []int64
	// Overcounted counts counters above their acknowledged plus
	// unanswered increments (a stale-epoch or doubled write landed).
	Overcounted int64
	// TicksUnexplained counts missed cron ticks with no fault, or only a
	// graceful rolling restart, to explain them.
	TicksUnexplained int64
	// Unreadable counts checks that could not read the fleet's state.
	Unreadable int64
	// Violations says what broke an invariant; empty means none did.
	Violations []string
}

func (o *Outcome) violate(format string, args ...any) {
	o.Violations = append(o.Violations, fmt.Sprintf(format, args...))
}

// getJSON GETs path through the doors until it answers or the deadline
// passes: checks read after the faults, so a retry is only patience.
func getJSON(d *lbclient.Doors, path string, v any, deadline time.Time) error {
	for {
		resp, err := d.Do("GET", path, "", nil)
		if err == nil {
			return json.Unmarshal(resp.Body, v)
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Verify checks every invariant against the ledger, waiting (bounded) for
// the queue, alarms and cron to catch up. ticksFrom and ticksTo bound the
// cron ticks checked (Unix seconds, inclusive).
// logs are the replicas' outputs, which tell a tick whose handler failed
// from one that never ran.
//
// With strict false, requests that failed while no fault or only a graceful
// rolling restart was active are reported but are not violations (the short
// run in make test; see docs/limits.md). Lost data is always a violation.
func Verify(d *lbclient.Doors, l *Ledger, tl *Timeline, ticksFrom, ticksTo int64, logs []string, strict bool, logf func(string, ...any)) Outcome {
	o := Outcome{Lost: map[Op]int64{}, Duplicated: map[Op]int64{}, TicksMissed: map[Fault][]int64{}}
	counters, messages, atts, alarms := l.snapshot()
	o.checkCounters(d, counters)
	o.checkQueue(d, messages, logf)
	o.checkAttachments(d, atts)
	o.checkAlarms(d, alarms)
	o.checkCron(d, tl, ticksFrom, ticksTo, logs)
	for f, n := range l.failedBy() {
		if n > 0 && !failuresAllowed(f) {
			if strict {
				o.violate("%d requests failed with %s active", n, f)
			} else {
				logf("NOT ENFORCED in this run (DWK_SOAK_STRICT=1 enforces it): %d requests failed with %s active", n, f)
			}
		}
	}
	return o
}

// checkCounters: each counter's value is at least its acknowledged
// increments (none lost) and at most those plus the increments whose
// answer was lost (no stale-epoch write, no double apply).
func (o *Outcome) checkCounters(d *lbclient.Doors, counters map[string]counterLedger) {
	names := make([]string, 0, len(counters))
	for n := range counters {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := counters[n]
		var got struct{ Value int64 }
		if err := getJSON(d, "/counter/"+n, &got, time.Now().Add(60*time.Second)); err != nil {
			o.Unreadable++
			o.violate("read counter %s: %v", n, err)
			continue
		}
		switch {
		case got.Value < c.Acked:
			o.Lost[OpIncrement] += c.Acked - got.Value
			o.violate("counter %s = %d < %d acknowledged increments", n, got.Value, c.Acked)
		case got.Value > c.Acked+c.Unknown:
			o.Overcounted++
			o.violate("counter %s = %d > %d acknowledged + %d unanswered: a stale or doubled write landed", n, got.Value, c.Acked, c.Unknown)
		default:
			o.UnknownLanded += got.Value - c.Acked
		}
	}
}

// checkQueue waits until every acknowledged chat message was delivered to
// the queue consumer at least once.
func (o *Outcome) checkQueue(d *lbclient.Doors, acked map[int64]bool, logf func(string, ...any)) {
	var st struct {
		Messages, Notifications, Deliveries int64
		Undelivered                         []int64
	}
	deadline := time.Now().Add(120 * time.Second)
	var lost []int64
	for {
		lost = lost[:0]
		err := getJSON(d, "/chat/stats", &st, deadline)
		if err == nil {
			for _, id := range st.Undelivered {
				if acked[id] {
					lost = append(lost, id)
				}
			}
			// The list holds at most 1000 ids: it is complete only below.
			if len(lost) == 0 && len(st.Undelivered) < 1000 {
				break
			}
		}
		if time.Now().After(deadline) {
			if err != nil {
				o.Unreadable++
				o.violate("chat stats: %v", err)
			}
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	if len(lost) > 0 {
		o.Lost[OpMessage] += int64(len(lost))
		o.violate("%d acknowledged messages never delivered to the queue consumer, e.g. %v", len(lost), lost[:min(len(lost), 10)])
	}
	o.Duplicated[OpMessage] = st.Deliveries - st.Notifications
	logf("queue: %d messages stored, %d delivered, %d deliveries, %d not delivered (none acknowledged)", st.Messages, st.Notifications, st.Deliveries, len(st.Undelivered))
}

// checkAttachments reads back every acknowledged R2 put (at most 1000,
// evenly spread).
func (o *Outcome) checkAttachments(d *lbclient.Doors, atts []attachment) {
	step := max(1, len(atts)/1000)
	for i := 0; i < len(atts); i += step {
		a := atts[i]
		var resp lbclient.Response
		var err error
		for deadline := time.Now().Add(30 * time.Second); ; {
			resp, err = d.Do("GET", a.URL, "", nil)
			if err == nil || resp.Status == 404 || time.Now().After(deadline) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if err != nil || !bytes.Equal(resp.Body, a.Body) {
			o.Lost[OpPut]++
			o.violate("attachment %s: %v (acknowledged put)", a.URL, errOr(err, "content differs"))
		}
	}
}

// checkAlarms waits until every acknowledged alarm fired at least once.
func (o *Outcome) checkAlarms(d *lbclient.Doors, names []string) {
	deadline := time.Now().Add(60 * time.Second)
	for _, n := range names {
		var st struct{ Fired int64 }
		for {
			err := getJSON(d, "/counter/"+n+"/alarm", &st, deadline)
			if (err == nil && st.Fired >= 1) || time.Now().After(deadline) {
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
		if st.Fired == 0 {
			o.Lost[OpAlarm]++
			o.violate("alarm on %s never fired", n)
		}
		o.Duplicated[OpAlarm] += max(0, st.Fired-1)
	}
}

// checkCron: every tick in [from, to] ran at most once, and a tick that
// never ran is explained by a fault (its claimer killed or stopped, or
// the coordination store down); a tick missed with no fault active, or
// during a graceful rolling restart, is a violation.
func (o *Outcome) checkCron(d *lbclient.Doors, tl *Timeline, from, to int64, logs []string) {
	var ticks map[string]int64
	if err := getJSON(d, "/counter/_cron/ticks", &ticks, time.Now().Add(60*time.Second)); err != nil {
		o.Unreadable++
		o.violate("cron ticks: %v", err)
		return
	}
	for s := from; s <= to; s++ {
		o.TicksChecked++
		runs := ticks[strconv.FormatInt(s, 10)]
		switch {
		case runs > 1:
			o.TicksTwice = append(o.TicksTwice, s)
			o.violate("cron tick %d ran %d times", s, runs)
		case runs == 0:
			at := time.Unix(s, 0)
			f := tl.Blame(at, at.Add(time.Second))
			o.TicksMissed[f] = append(o.TicksMissed[f], s)
			if handlerFailed(logs, at) {
				o.TicksHandlerFailed = append(o.TicksHandlerFailed, s)
				continue
			}
			if !failuresAllowed(f) {
				o.TicksUnexplained++
				o.violate("cron tick %d never ran, with %s active", s, f)
			}
		}
	}
}

func errOr(err error, s string) string {
	if err != nil {
		return err.Error()
	}
	return s
}

// handlerFailed tells whether a replica logged that the handler of the tick
// at failed.
func handlerFailed(logs []string, at time.Time) bool {
	u := at.UTC()
	stamps := []string{u.Format("2006-01-02T15:04:05"), u.Format("2006-01-02 15:04:05")}
	for _, out := range logs {
		for _, line := range strings.Split(out, "\n") {
			if !strings.Contains(line, "cron handler failed") {
				continue
			}
			for _, st := range stamps {
				if strings.Contains(line, st) {
					return true
				}
			}
		}
	}
	return false
}
