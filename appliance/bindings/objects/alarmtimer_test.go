package objects

import (
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/fleet/objectid"
)

func timerKey(n byte) objKey { return objKey{ns: "C", id: objectid.ID{n}} }

// signalled reports whether the timer's rearm signal is pending, and
// consumes it.
func signalled(t *alarmTimer) bool {
	select {
	case <-t.rearmedChan():
		return true
	default:
		return false
	}
}

func TestAlarmTimer(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	var x alarmTimer
	if _, ok := x.next(); ok || x.takeDue(at(1e6)) != nil {
		t.Fatal("zero timer is not empty")
	}

	steps := []struct {
		desc     string
		do       func()
		takeDue  time.Time // when set, takeDue(takeDue) runs after do
		wantTook bool
		next     time.Time // zero: nothing armed
		signal   bool      // whether the scheduler is woken
	}{
		{desc: "first arm wakes", do: func() { x.arm(timerKey(1), at(300)) }, next: at(300), signal: true},
		{desc: "a later time does not", do: func() { x.arm(timerKey(2), at(500)) }, next: at(300)},
		{desc: "an earlier one does", do: func() { x.arm(timerKey(3), at(100)) }, next: at(100), signal: true},
		{desc: "moving the earliest later", do: func() { x.arm(timerKey(3), at(400)) }, next: at(300)},
		{desc: "moving another to the front", do: func() { x.arm(timerKey(2), at(200)) }, next: at(200), signal: true},
		{desc: "disarming the earliest", do: func() { x.disarm(timerKey(2)) }, next: at(300)},
		{desc: "disarming an unknown object", do: func() { x.disarm(timerKey(9)) }, next: at(300)},
		{desc: "nothing due yet", do: func() {}, next: at(300), takeDue: at(299)},
		{desc: "due at its time", do: func() {}, next: at(400), takeDue: at(300), wantTook: true},
		{desc: "everything due", do: func() {}, takeDue: at(1e6), wantTook: true},
		{desc: "armed again after it was taken", do: func() { x.arm(timerKey(1), at(50)) }, next: at(50), signal: true},
	}
	for _, s := range steps {
		s.do()
		if !s.takeDue.IsZero() {
			if got := x.takeDue(s.takeDue) != nil; got != s.wantTook {
				t.Errorf("%s: takeDue = %v, want %v", s.desc, got, s.wantTook)
			}
		}
		got, ok := x.next()
		if ok != !s.next.IsZero() || !got.Equal(s.next) {
			t.Errorf("%s: next = %v, %v; want %v", s.desc, got, ok, s.next)
		}
		if got := signalled(&x); got != s.signal {
			t.Errorf("%s: signalled = %v, want %v", s.desc, got, s.signal)
		}
	}
}

// TestAlarmTimerBounded checks that a full timer arms no new objects (the
// poll finds their alarms) but still moves the ones it holds.
func TestAlarmTimerBounded(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	var x alarmTimer
	key := func(i int) objKey { return objKey{ns: "C", id: objectid.ID{byte(i), byte(i >> 8), byte(i >> 16)}} }
	for i := range maxArmed {
		x.arm(key(i), t0.Add(time.Hour+time.Duration(i)*time.Millisecond))
	}
	x.arm(key(maxArmed), t0)
	if got := x.armedCount(); got != maxArmed {
		t.Errorf("armed %d, want %d", got, maxArmed)
	}
	if got, _ := x.next(); !got.Equal(t0.Add(time.Hour)) {
		t.Errorf("next = %v: an object armed beyond the bound", got)
	}
	x.arm(key(7), t0)
	if got, _ := x.next(); !got.Equal(t0) {
		t.Errorf("next = %v after moving an armed object to %v", got, t0)
	}
}
