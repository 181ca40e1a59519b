package cron

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// MaxGrace bounds a tick's grace window: how long after its time a tick
// whose claim failed (the claimer's store is unreachable), or whose
// winner's claim lapsed, is claimed again. The window also ends when the
// entry's next tick is due, so a tick never starts after the one that
// follows it.
const MaxGrace = 5 * time.Minute

// doneTimeout bounds recording a tick done after its handler returned.
const doneTimeout = 10 * time.Second

// graceEnd returns the end of tick's grace window.
func graceEnd(e Entry, tick time.Time) time.Time {
	end := e.Schedule.Next(tick)
	if limit := tick.Add(MaxGrace); end.IsZero() || end.After(limit) {
		end = limit
	}
	return end
}

// fire claims one tick and runs it if won, or watches another replica's
// claim of it until the tick is settled or its grace window ends.
func (s *Scheduler) fire(e Entry, tick time.Time) {
	defer s.runs.Done()
	log := s.cfg.Logger.With("worker", e.Worker, "cron", e.Schedule.String(), "tick", tick)
	s.stats.due.Add(1)
	end := graceEnd(e, tick)
	for first := true; ; first = false {
		c, err := s.claim(e, tick, end, log)
		switch {
		case err != nil && first:
			s.stats.missed.Add(1)
			log.Error("cron tick missed: its claim kept failing until the tick's grace window ended (or the scheduler stopped)", "err", err)
			return
		case err != nil:
			// Another replica won the tick; whether it finished is unknown.
			s.stats.lost.Add(1)
			return
		case c.Held != nil:
			if !first {
				s.stats.takenOver.Add(1)
				log.Warn("cron tick taken over: its winner neither finished it nor renewed its claim")
			}
			s.stats.runs.Add(1)
			s.runHeld(e, tick, c.Held, log)
			return
		}
		if c.Retry <= 0 || !s.cfg.Clock.Now().Add(c.Retry).Before(end) {
			s.stats.lost.Add(1)
			return
		}
		select {
		case <-s.drain:
			s.stats.lost.Add(1)
			return
		case <-s.runCtx.Done():
			s.stats.lost.Add(1)
			return
		case <-s.cfg.Clock.After(c.Retry):
		}
	}
}

// claim claims a tick, retrying a claim that fails (not one that another
// replica won) with backoff until end, the tick's grace window's end: a
// tick due during a store outage runs once when the store is back, on one
// replica, instead of being lost.
func (s *Scheduler) claim(e Entry, tick, end time.Time, log *slog.Logger) (Claim, error) {
	backoff := 250 * time.Millisecond
	for attempt := 1; ; attempt++ {
		c, err := s.cfg.Claimer.Claim(s.runCtx, e.Key(), tick)
		if err == nil {
			if attempt > 1 {
				s.stats.lateClaims.Add(1)
				log.Info("cron tick claimed after its store came back", "attempts", attempt)
			}
			return c, nil
		}
		s.stats.claimErrors.Add(1)
		wait := min(backoff, end.Sub(s.cfg.Clock.Now()))
		if wait <= 0 {
			return Claim{}, err
		}
		if attempt == 1 {
			log.Warn("cron tick claim failed; retrying within the tick's grace window", "until", end, "err", err)
		}
		select {
		case <-s.drain:
			return Claim{}, fmt.Errorf("%w (the scheduler stopped)", err)
		case <-s.runCtx.Done():
			return Claim{}, err
		case <-s.cfg.Clock.After(wait):
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

// runHeld runs a won tick, renewing its claim meanwhile, and records it
// done. The handler's context ends if the claim is found lost. A tick
// whose handler failed is recorded done too: it is not retried.
func (s *Scheduler) runHeld(e Entry, tick time.Time, h HeldTick, log *slog.Logger) {
	ctx, cancel := context.WithCancel(s.runCtx)
	defer cancel()
	stop, lost := make(chan struct{}), make(chan bool, 1)
	go func() { lost <- s.renew(h, stop, cancel, log) }()
	err := s.run(ctx, e, tick)
	close(stop)
	if <-lost {
		return
	}
	if err != nil {
		s.stats.runErrors.Add(1)
		log.Error("cron handler failed; the tick is not retried", "err", err)
	}
	dctx, dcancel := context.WithTimeout(context.WithoutCancel(s.runCtx), doneTimeout)
	defer dcancel()
	switch err := h.Done(dctx); {
	case errors.Is(err, ErrClaimLost):
		s.stats.lapsed.Add(1)
		log.Error("cron tick ran, but its claim had lapsed and another replica took it over", "err", err)
	case err != nil:
		log.Error("cron tick ran, but recording it done failed: another replica may run it again once its claim lapses", "err", err)
	}
}

// renew renews h every h.RenewEvery() until stop closes. When the claim
// is lost it calls cancel (the handler's context) and reports true.
func (s *Scheduler) renew(h HeldTick, stop <-chan struct{}, cancel func(), log *slog.Logger) bool {
	every := h.RenewEvery()
	if every <= 0 {
		return false
	}
	for {
		select {
		case <-stop:
			return false
		case <-s.cfg.Clock.After(every):
		}
		ctx, done := context.WithTimeout(s.runCtx, every)
		err := h.Renew(ctx)
		done()
		switch {
		case errors.Is(err, ErrClaimLost):
			s.stats.lapsed.Add(1)
			log.Error("cron tick's claim lapsed while it ran and another replica took it over; its handler is cancelled", "err", err)
			cancel()
			return true
		case err != nil:
			log.Warn("cron tick's claim renewal failed; retrying", "err", err)
		}
	}
}

// run calls the handler, turning a panic into an error.
func (s *Scheduler) run(ctx context.Context, e Entry, tick time.Time) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cron handler of %q panicked: %v", e.Worker, r)
		}
	}()
	return s.cfg.Run(ctx, e.Worker, worker.ScheduledEvent{Cron: e.Schedule.String(), ScheduledTime: tick.UTC()})
}
