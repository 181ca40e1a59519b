// Package wait is the one way a test waits for something another goroutine
// or process does: poll a condition until it holds, bounded by a deadline.
// Tests never sleep to synchronise.
package wait

import (
	"testing"
	"time"
)

// Timeout is how long For waits.
const Timeout = 10 * time.Second

// maxInterval caps the pause between two checks, so that an expensive
// condition (a query to a server) is not checked in a busy loop.
const maxInterval = 50 * time.Millisecond

// For polls cond until it returns true and fails the test if it has not
// within Timeout. what names the awaited event in the failure message
// ("the background refresh").
func For(t testing.TB, what string, cond func() bool) {
	t.Helper()
	Within(t, Timeout, what, cond)
}

// Within is For with a deadline of timeout instead of Timeout.
func Within(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	interval := time.Millisecond
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(interval)
		interval = min(2*interval, maxInterval)
	}
}
