package soak

import (
	"fmt"
	"slices"
	"time"
)

// span is the worst case of one measure seen while one kind of fault was
// blamed: how long, what it was, and when it began and ended.
type span struct {
	D        time.Duration
	What     string
	From, To time.Time
}

// longest keeps the longest span per fault kind.
type longest map[Fault]span

// note keeps s as f's span when it is the longest so far.
func (m longest) note(f Fault, s span) {
	if s.D > m[f].D {
		m[f] = s
	}
}

func (m longest) clone() longest {
	out := make(longest, len(m))
	for f, s := range m {
		out[f] = s
	}
	return out
}

// describe writes s for a report, its times as offsets from start, the
// load's start: "counter soak-c3, 3.15s from +41.20s to +44.35s".
func (s span) describe(start time.Time) string {
	if s.D == 0 {
		return "-"
	}
	return fmt.Sprintf("%s, %v from %+.2fs to %+.2fs", s.What, s.D.Round(time.Millisecond),
		s.From.Sub(start).Seconds(), s.To.Sub(start).Seconds())
}

// requestSpan describes one request for the longest-request measure.
func requestSpan(op Op, start, end time.Time, err error) span {
	what := string(op) + ", answered"
	if err != nil {
		msg := firstLine(err.Error())
		if len(msg) > 160 {
			msg = msg[:160] + "…"
		}
		what = string(op) + ", failed: " + msg
	}
	return span{D: end.Sub(start), What: what, From: start, To: end}
}

// unavailable returns the longest unavailability of a counter per fault
// kind. A counter is unavailable from the moment an increment of it is
// sent until the counter next acknowledges an increment, that one or
// another sent earlier or later: the wait of a client that starts then
// and, as the load does, keeps sending. The fault blamed is the most
// disruptive one whose window (with the timeline's Tail) overlaps the
// wait. An increment with no acknowledgement after it (at the end of
// the load) is not counted.
func (l *Ledger) unavailable() longest {
	counters, _, _, _ := l.snapshot()
	out := longest{}
	for name, c := range counters {
		acks := slices.Clone(c.AckedAt)
		slices.SortFunc(acks, time.Time.Compare)
		for _, sent := range c.Sent {
			i, _ := slices.BinarySearchFunc(acks, sent, time.Time.Compare)
			if i == len(acks) {
				continue
			}
			f, _ := l.tl.blameWindow(sent, acks[i])
			out.note(f, span{D: acks[i].Sub(sent), What: "counter " + name, From: sent, To: acks[i]})
		}
	}
	return out
}
