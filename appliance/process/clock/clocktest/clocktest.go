// Package clocktest is the fake clock.Clock of every test: time moves only
// when the test says so, and timers fire when it passes them.
package clocktest

import (
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/process/clock"
	"github.com/dwk/fleet/test/wait"
)

// Fake is a clock.Clock that moves only when told to. It is safe for
// concurrent use.
type Fake struct {
	mu      sync.Mutex
	now     time.Time
	waiters []waiter
	delays  []time.Duration // every After call's d, in order
}

type waiter struct {
	at time.Time
	ch chan time.Time
}

var _ clock.Clock = (*Fake)(nil)

// NewFake returns a fake clock that reads now.
func NewFake(now time.Time) *Fake { return &Fake{now: now} }

// Now returns the fake's current time.
func (c *Fake) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After returns a channel that receives once the fake has been moved d
// past the current time; d <= 0 fires at once.
func (c *Fake) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.delays = append(c.delays, d)
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.waiters = append(c.waiters, waiter{c.now.Add(d), ch})
	return ch
}

// Advance moves the fake forward by d and fires every timer due by then.
func (c *Fake) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.set(c.now.Add(d))
}

// Set moves the fake to t, forward or back, and fires every timer due by
// then.
func (c *Fake) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.set(t)
}

func (c *Fake) set(t time.Time) {
	c.now = t
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.at.After(t) {
			kept = append(kept, w)
			continue
		}
		w.ch <- t
	}
	c.waiters = kept
}

// Timers returns when each timer that has not fired yet is due, in the
// order they were set: a test reads from it that a goroutine sleeps on the
// clock, and until when.
func (c *Fake) Timers() []time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	due := make([]time.Time, len(c.waiters))
	for i, w := range c.waiters {
		due[i] = w.at
	}
	return due
}

// Delays returns the d of every After call so far, in order.
func (c *Fake) Delays() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.delays...)
}

// Calls returns how many times After has been called.
func (c *Fake) Calls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.delays)
}

// WaitCalls waits until After has been called n times in all: the
// goroutine under test is asleep, waiting for the clock.
func (c *Fake) WaitCalls(t testing.TB, n int) {
	t.Helper()
	wait.For(t, "a goroutine to wait on the clock", func() bool { return c.Calls() >= n })
}
