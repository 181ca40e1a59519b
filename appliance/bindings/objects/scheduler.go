package objects

import (
	"context"
	"errors"
	"slices"
	"time"
)

// schedulerLoop starts due alarms until Close. It sleeps until the earliest
// alarm armed on this replica (see alarmTimer) or its next poll, whichever
// comes first; the poll, every AlarmPollInterval, finds the alarms nobody
// armed here: set on other replicas, left by a restart, or whose run or
// claim failed. A kick (a namespace bound, a run ended with due alarms
// left) polls at once.
//
// When the index is slow to answer (AlarmLookahead), the scheduler asks
// that much ahead of an alarm's time, holds what it claims, and starts it
// at its time, so the poll's own latency does not make alarms late.
func (rt *Runtime) schedulerLoop() {
	defer rt.wg.Done()
	var (
		nextPoll time.Time        // zero: poll at once
		fire     <-chan time.Time // the one pending timer, nil if none
		fireAt   time.Time        // when fire fires, at the latest
	)
	for {
		now := rt.cfg.Clock.Now()
		rt.startHeld(now)
		ahead := rt.lookahead()
		if armed := rt.timer.takeDue(now.Add(ahead)); armed != nil || !now.Before(nextPoll) {
			rt.pollAlarms(now.Add(ahead), armed)
			nextPoll = now.Add(rt.cfg.AlarmPollInterval)
		}
		// The poll may have taken a while: measure the wait from after it.
		now = rt.cfg.Clock.Now()
		deadline := nextPoll
		if at, ok := rt.timer.next(); ok && at.Add(-ahead).Before(deadline) {
			deadline = at.Add(-ahead)
		}
		if len(rt.timer.held) > 0 && rt.timer.held[0].at.Before(deadline) {
			deadline = rt.timer.held[0].at
		}
		if !deadline.After(now) {
			select {
			case <-rt.stop:
				return
			default:
				continue
			}
		}
		// A timer that fires later than needed is replaced; one that fires
		// earlier (its alarm was deleted) is kept: waking for nothing costs
		// less than a timer per change.
		if fire == nil || deadline.Before(fireAt) {
			fire, fireAt = rt.cfg.Clock.After(deadline.Sub(now)), deadline
			if slip := rt.cfg.Clock.Now().Sub(now); slip > maxClockSlip {
				// Time passed between reading the clock and starting the
				// timer (the goroutine was descheduled, or a test moved
				// its clock), so it may fire that much late: look again.
				fireAt = deadline.Add(slip)
				continue
			}
		}
		select {
		case <-rt.stop:
			return
		case <-rt.kick:
			nextPoll = time.Time{}
		case <-rt.timer.rearmedChan():
		case <-fire:
			fire = nil
		}
	}
}

const (
	// maxClockSlip bounds how late the scheduler's timer may start.
	maxClockSlip = time.Millisecond
	// maxLookahead bounds how early the scheduler claims an alarm, and so
	// how long a claimed alarm may hold a slot before its time.
	maxLookahead = 250 * time.Millisecond
)

// lookahead is how long before an alarm's time the scheduler asks for it.
func (rt *Runtime) lookahead() time.Duration {
	if l, ok := rt.cfg.Alarms.(AlarmLookahead); ok {
		return min(max(l.Lookahead(), 0), maxLookahead)
	}
	return 0
}

// pollAlarms claims the alarms due by horizon that are not already
// running, up to AlarmConcurrency at once, and starts them, or holds them
// until their time: the entry's, or the one armed here (armed), which
// keeps the precision the index drops. Due alarms it has to leave (no free
// slot, or the object's alarm still running) set the backlog, so the next
// run to end polls again.
func (rt *Runtime) pollAlarms(horizon time.Time, armed map[objKey]time.Time) {
	rt.mu.Lock()
	open := rt.state == stateOpen
	free := rt.cfg.AlarmConcurrency - len(rt.alarming)
	rt.pollSeq++
	poll := rt.pollSeq
	clear(rt.finished) // runs that ended before this poll are in the index
	if open && free <= 0 {
		rt.timer.backlog = true
	}
	rt.mu.Unlock()
	if !open || free <= 0 {
		return
	}
	classes := rt.boundClasses()
	if len(classes) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(rt.ctx, 10*time.Second)
	defer cancel()
	// Running alarms may come back in the answer; ask for enough to fill
	// every free slot anyway.
	due, err := rt.cfg.Alarms.Due(ctx, classes, horizon, rt.cfg.AlarmConcurrency)
	if err != nil {
		rt.log.Error("poll due alarms", "err", err)
		return
	}
	now := rt.cfg.Clock.Now()
	rt.mu.Lock()
	defer rt.mu.Unlock()
	ended := false
	if len(due) >= rt.cfg.AlarmConcurrency {
		// A full answer: the index may hold more that are due.
		rt.timer.backlog = true
	}
	for _, e := range due {
		k := keyOf(e.Object)
		at := e.At
		if t, ok := armed[k]; ok && t.After(at) {
			at = t // the index keeps milliseconds
		}
		switch {
		case rt.state != stateOpen:
		case rt.finished[k] == poll:
			// The run ended during this poll, whose answer may predate the
			// run's bookkeeping; that bookkeeping armed what comes next.
			ended = true
		case rt.alarming[k] && rt.isHeld(k):
			// Held from an earlier poll; it starts at its time, unless the
			// alarm has moved earlier since.
			rt.hold(heldRun{e: e, at: at})
		case rt.alarming[k], len(rt.alarming) >= rt.cfg.AlarmConcurrency:
			rt.timer.backlog = true
		default:
			rt.alarming[k] = true
			if at.After(now) {
				rt.hold(heldRun{e: e, at: at})
				continue
			}
			rt.wg.Add(1)
			go rt.runAlarm(e)
		}
	}
	if ended && rt.timer.backlog {
		// A slot came free during this poll and more may be due.
		rt.timer.backlog = false
		rt.wake()
	}
}

// hold queues a claimed alarm until its time; an object's alarm already
// held moves only earlier. Called with rt.mu held, from the scheduler
// goroutine.
func (rt *Runtime) hold(h heldRun) {
	k := keyOf(h.e.Object)
	if i := slices.IndexFunc(rt.timer.held, func(x heldRun) bool { return keyOf(x.e.Object) == k }); i >= 0 {
		if !h.at.Before(rt.timer.held[i].at) {
			return
		}
		rt.timer.held = slices.Delete(rt.timer.held, i, i+1)
	}
	i, _ := slices.BinarySearchFunc(rt.timer.held, h.at, func(x heldRun, at time.Time) int { return x.at.Compare(at) })
	rt.timer.held = slices.Insert(rt.timer.held, i, h)
}

// isHeld reports whether object k's alarm is held. Called with rt.mu held,
// from the scheduler goroutine.
func (rt *Runtime) isHeld(k objKey) bool {
	return slices.ContainsFunc(rt.timer.held, func(h heldRun) bool { return keyOf(h.e.Object) == k })
}

// startHeld starts the held alarms whose time has come; once the runtime
// stops taking work it lets them go: their entries stay in the index for
// whoever runs the objects next.
func (rt *Runtime) startHeld(now time.Time) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	n := 0
	for _, h := range rt.timer.held {
		if h.at.After(now) && rt.state == stateOpen {
			break
		}
		n++
		if rt.state != stateOpen {
			delete(rt.alarming, keyOf(h.e.Object))
			continue
		}
		rt.wg.Add(1)
		go rt.runAlarm(h.e)
	}
	rt.timer.held = slices.Delete(rt.timer.held, 0, n)
}

// runAlarm delivers one due entry in the object's turn.
func (rt *Runtime) runAlarm(e AlarmEntry) {
	defer rt.wg.Done()
	defer func() {
		rt.mu.Lock()
		delete(rt.alarming, keyOf(e.Object))
		rt.finished[keyOf(e.Object)] = rt.pollSeq
		backlog := rt.timer.backlog
		rt.timer.backlog = false
		rt.mu.Unlock()
		if backlog {
			rt.wake()
		}
	}()
	err := rt.event(rt.ctx, e.Object, func(ctx context.Context, in *instance) error {
		return in.fireAlarm(ctx, e)
	})
	var away *ElsewhereError
	switch {
	case err == nil:
	case errors.As(err, &away), errors.Is(err, ErrDraining), errors.Is(err, ErrClosed), errors.Is(err, context.Canceled):
		// Another replica runs the object, or this one is stopping: the
		// entry stays for whoever runs the object next.
	default:
		rt.alarmNotDelivered(e, err)
	}
}

// alarmNotDelivered books a failure that happened before the handler could
// run (the object would not start, or its storage failed).
func (rt *Runtime) alarmNotDelivered(e AlarmEntry, cause error) {
	ctx, cancel := context.WithTimeout(rt.ctx, 10*time.Second)
	defer cancel()
	var err error
	if e.Retries >= rt.cfg.AlarmMaxRetries {
		rt.stats.alarmsFailed.Add(1)
		rt.log.Error("alarm could not be delivered; giving up", "object", e.Object, "attempts", e.Retries+1, "err", cause)
		err = rt.cfg.Alarms.Delete(ctx, e.Object)
	} else {
		rt.stats.alarmsRetried.Add(1)
		next := rt.cfg.Clock.Now().Add(retryDelay(rt.cfg.AlarmRetryBase, e.Retries))
		rt.log.Warn("alarm could not be delivered; will retry", "object", e.Object, "retry", e.Retries+1, "at", next, "err", cause)
		err = rt.putAlarm(ctx, AlarmEntry{Object: e.Object, At: next, Retries: e.Retries + 1})
	}
	if err != nil {
		rt.log.Error("alarm index", "object", e.Object, "err", err)
	}
}
