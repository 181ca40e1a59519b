package membership

import "time"

// Clock is the time source of a Heartbeat and a View, injected so that
// tests need not wait for real intervals.
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

// After returns time.After(d); an unreferenced timer is collected even if
// it has not fired.
func (SystemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
