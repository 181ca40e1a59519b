// Package clock is the local time source that packages with timers take
// as a dependency, so that tests drive time with clocktest.Fake instead of
// sleeping.
package clock

import "time"

// Clock tells the local time and wakes a caller once a duration has
// passed on it.
type Clock interface {
	// Now returns the current time on this clock.
	Now() time.Time
	// After returns a channel that receives once d has passed on this
	// clock; d <= 0 fires at once. An abandoned channel must not leak.
	After(d time.Duration) <-chan time.Time
}

// System is the real clock.
type System struct{}

var _ Clock = System{}

// Now returns time.Now().
func (System) Now() time.Time { return time.Now() }

// After returns time.After(d); since Go 1.23 an unreferenced timer is
// collected even if it has not fired.
func (System) After(d time.Duration) <-chan time.Time { return time.After(d) }
