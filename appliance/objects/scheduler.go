package objects

import (
	"context"
	"errors"
	"time"
)

// schedulerLoop polls the alarm index and starts due alarms until Close.
func (rt *Runtime) schedulerLoop() {
	defer rt.wg.Done()
	for {
		rt.pollAlarms()
		select {
		case <-rt.stop:
			return
		case <-rt.kick:
		case <-rt.cfg.Clock.After(rt.cfg.AlarmPollInterval):
		}
	}
}

// pollAlarms starts the due alarms that are not already running, up to
// AlarmConcurrency at once.
func (rt *Runtime) pollAlarms() {
	rt.mu.Lock()
	open := rt.state == stateOpen
	free := rt.cfg.AlarmConcurrency - len(rt.alarming)
	rt.pollSeq++
	poll := rt.pollSeq
	clear(rt.finished) // runs that ended before this poll are in the index
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
	due, err := rt.cfg.Alarms.Due(ctx, classes, rt.cfg.Clock.Now(), rt.cfg.AlarmConcurrency)
	if err != nil {
		rt.log.Error("poll due alarms", "err", err)
		return
	}
	for _, e := range due {
		k := keyOf(e.Object)
		rt.mu.Lock()
		if rt.alarming[k] || rt.finished[k] == poll || len(rt.alarming) >= rt.cfg.AlarmConcurrency || rt.state != stateOpen {
			rt.mu.Unlock()
			continue
		}
		rt.alarming[k] = true
		rt.wg.Add(1)
		rt.mu.Unlock()
		go rt.runAlarm(e)
	}
}

// runAlarm delivers one due entry in the object's turn.
func (rt *Runtime) runAlarm(e AlarmEntry) {
	defer rt.wg.Done()
	defer func() {
		rt.mu.Lock()
		delete(rt.alarming, keyOf(e.Object))
		rt.finished[keyOf(e.Object)] = rt.pollSeq
		rt.mu.Unlock()
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
		err = rt.cfg.Alarms.Put(ctx, AlarmEntry{Object: e.Object, At: next, Retries: e.Retries + 1})
	}
	if err != nil {
		rt.log.Error("alarm index", "object", e.Object, "err", err)
	}
}
