package soak

import (
	"errors"
	"github.com/dwk/fleet/test/lbclient"
	"strings"
	"testing"
	"time"
)

// TestLongestPerFault: the longest request, and the longest wait from
// an increment's sending until its counter next acknowledged one, are
// kept per fault kind blamed; increments with no acknowledgement after
// them count for no wait; the result and its figures carry both.
func TestLongestPerFault(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	tl := &Timeline{Tail: time.Second}
	tl.windows = []window{
		{kind: CutStore, detail: "r1 cut from libSQL for 5s", start: at(10), end: at(15)},
		{kind: SlowStore, detail: "libSQL slowed for 5s", start: at(30), end: at(35)},
	}
	l := NewLedger(tl)
	down := &lbclient.RequestError{Err: errors.New("503 Service Unavailable"), Sent: true, Status: 503}
	for _, inc := range []struct {
		name       string
		sent, done float64
		err        error
	}{
		{"a", 0, 0.1, nil},
		{"a", 9, 9.5, nil},
		{"a", 11, 19, down},    // the cut's longest request (8s); waits 5.4s, until 16.4
		{"a", 12, 12.3, down},  // waits 4.4s
		{"a", 16, 16.4, nil},   // sent after the cut's tail: no fault
		{"a", 20, 29, down},    // 9s, no fault; no acknowledgement after it: no wait
		{"b", 29, 29.1, nil},   //
		{"b", 30.5, 31.5, nil}, // waits 0.7s, until the next one's answer
		{"b", 30, 31.2, nil},   // waits 1.2s
		{"b", 33, 35.9, nil},   // waits 2.9s: the slow store's longest
		{"b", 50, 50.1, down},  // waits 8s, until 58: no fault
		{"b", 50.5, 58, nil},   //
	} {
		l.incrementAt(inc.name, at(inc.sent), at(inc.done), inc.err)
	}
	requests, waits := l.longestRequests(), l.unavailable()
	for _, c := range []struct {
		what string
		got  span
		want time.Duration
	}{
		{"request during the cut", requests[CutStore], 8 * time.Second},
		{"request during the slow store", requests[SlowStore], 2900 * time.Millisecond},
		{"request with no fault", requests[None], 9 * time.Second},
		{"wait during the cut", waits[CutStore], 5400 * time.Millisecond},
		{"wait during the slow store", waits[SlowStore], 2900 * time.Millisecond},
		{"wait with no fault", waits[None], 8 * time.Second},
	} {
		if d := c.got.D - c.want; d < -time.Millisecond || d > time.Millisecond {
			t.Errorf("%s: %v (%s), want %v", c.what, c.got.D, c.got.What, c.want)
		}
	}
	if !strings.Contains(requests[CutStore].What, "failed: 503") {
		t.Errorf("longest request during the cut: %q, want the failed increment", requests[CutStore].What)
	}
	if got, want := waits[CutStore].describe(t0), "counter a, 5.4s from +11.00s to +16.40s"; got != want {
		t.Errorf("wait during the cut: %q, want %q", got, want)
	}

	o := Options{Duration: time.Minute, Seed: 1, Replicas: 3, LeaseTTL: 2 * time.Second}
	r := result(o, Faults, t0, time.Minute, l, tl, Outcome{}, &Load{})
	if got := r.Faults[CutStore].LongestUnavailableS; got < 5.39 || got > 5.41 {
		t.Errorf("result: longest unavailable during the cut %vs, want 5.4s", got)
	}
	for k, want := range map[string]string{
		"faults.replica_cut_from_libsql.longest_request":     "8.00 s",
		"faults.replica_cut_from_libsql.longest_unavailable": "5.40 s",
		"faults.libsql_slowed.longest_unavailable":           "2.90 s",
		"faults.none.longest_unavailable":                    "8.00 s",
	} {
		if got := r.Figures[k].Text; got != want {
			t.Errorf("figure %s = %q, want %q", k, got, want)
		}
	}
}
