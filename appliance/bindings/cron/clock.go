package cron

import "time"

// Clock is the Scheduler's source of time, injected so tests need not wait
// for real ticks.
type Clock interface {
	Now() time.Time
	// After returns a channel that receives once d has passed on this
	// clock; d <= 0 fires at once. An abandoned channel must not leak.
	After(d time.Duration) <-chan time.Time
}

// SystemClock is the real clock.
type SystemClock struct{}

var _ Clock = SystemClock{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// After returns time.After(d); since Go 1.23 an unreferenced timer is
// collected even if it has not fired.
func (SystemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
