package wasm

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
	"weak"

	"github.com/tetratelabs/wazero/api"
)

// Stopping runaway calls. jsrt's CPU limit interrupts goja, which does not
// run while WebAssembly does. So the outermost call into WebAssembly (one
// made from JavaScript that no WebAssembly called) is watched: by the
// process's watchdog, which every watchTick stops the calls that ran past
// what was left of their event's CPU time when they started, and by the
// event's context. A stop sets every instance of the isolate's stop flag
// (instrument.go): the running code traps at its next loop iteration or
// call, and the call throws a RuntimeError that says why. The flags are
// cleared when the outermost call returns, so the instances remain usable
// (a stopped call may have left an instance's memory half updated, as any
// trap may).
//
// Watching costs a call two uncontended locks and a clock read; the
// context is watched once per event, not per call.

// watchTick is how often the watchdog looks at the running calls: the
// precision of the CPU limit for WebAssembly.
const watchTick = 10 * time.Millisecond

// errStopCPU is why a call stops when its event runs out of CPU time.
var errStopCPU = errors.New("the event exceeded its CPU time limit while WebAssembly was running")

// stopCancelled is why a call stops when its event's context ends.
func stopCancelled(ctx context.Context) error {
	return fmt.Errorf("the event was cancelled while WebAssembly was running: %w", context.Cause(ctx))
}

// enter starts a call into WebAssembly: the outermost one is watched. It
// throws a RuntimeError when the event is already cancelled or out of CPU
// time. Pair it with leave.
func (s *state) enter() {
	if s.depth > 0 {
		s.depth++
		return
	}
	ev := s.iso.Current()
	ctx := ev.Context()
	if ctx.Err() != nil {
		s.throw(s.runtimeError, stopCancelled(ctx).Error())
	}
	budget := s.cpuLimit - ev.CPU()
	if budget <= 0 {
		s.throw(s.runtimeError, errStopCPU.Error())
	}
	if ctx != s.watchedCtx {
		if s.unwatch != nil {
			s.unwatch()
		}
		s.watchedCtx = ctx
		s.unwatch = context.AfterFunc(ctx, func() { s.stopFor(ctx) })
	}
	s.mu.Lock()
	s.armed, s.armedCtx = true, ctx
	s.stopErr = nil
	s.deadline = time.Now().Add(budget)
	s.mu.Unlock()
	s.depth = 1
}

// leave ends a call into WebAssembly and returns why it was stopped, if it
// was: for an inner call, the reason the outermost one is being stopped.
func (s *state) leave() error {
	s.depth--
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.stopErr
	if s.depth > 0 {
		return err
	}
	s.armed, s.armedCtx, s.stopErr = false, nil, nil
	if err != nil {
		s.setStopFlags(0)
	}
	return err
}

// stopFor stops the running call if it belongs to the event of ctx, which
// just ended.
func (s *state) stopFor(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.armed && s.armedCtx == ctx {
		s.stopLocked(stopCancelled(ctx))
	}
}

// checkDeadline stops the running call if it is past its deadline.
func (s *state) checkDeadline(now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.armed && !now.Before(s.deadline) {
		s.stopLocked(errStopCPU)
	}
}

// stopLocked stops the running call. Call it with mu held.
func (s *state) stopLocked(reason error) {
	if s.stopErr != nil {
		return
	}
	s.stopErr = reason
	s.setStopFlags(1)
}

// setStopFlags sets every live instance's stop flag to v. Call it with mu
// held.
func (s *state) setStopFlags(v uint64) {
	live := s.stoppable[:0]
	for _, w := range s.stoppable {
		if in := w.Value(); in != nil {
			in.stop.Set(v)
			live = append(live, w)
		}
	}
	clear(s.stoppable[len(live):])
	s.stoppable = live
}

// addStoppable registers an instance with a stop flag. A call that is
// being stopped stops it too.
func (s *state) addStoppable(in *instance, flag api.MutableGlobal) {
	in.stop = flag
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopErr != nil {
		flag.Set(1)
	}
	s.stoppable = append(s.stoppable, weak.Make(in))
}

// watchdog is one goroutine for the process that checks the states'
// deadlines every watchTick. It runs while any state is alive.
var watchdog struct {
	mu      sync.Mutex
	states  []weak.Pointer[state]
	running bool
}

// watch adds s to the watchdog, starting it if needed.
func watch(s *state) {
	watchdog.mu.Lock()
	defer watchdog.mu.Unlock()
	watchdog.states = append(watchdog.states, weak.Make(s))
	if !watchdog.running {
		watchdog.running = true
		go watchLoop()
	}
}

func watchLoop() {
	t := time.NewTicker(watchTick)
	defer t.Stop()
	var list []*state
	for now := range t.C {
		watchdog.mu.Lock()
		live := watchdog.states[:0]
		list = list[:0]
		for _, w := range watchdog.states {
			if s := w.Value(); s != nil {
				live = append(live, w)
				list = append(list, s)
			}
		}
		clear(watchdog.states[len(live):])
		watchdog.states = live
		if len(live) == 0 {
			watchdog.running = false
			watchdog.mu.Unlock()
			return
		}
		watchdog.mu.Unlock()
		for _, s := range list {
			s.checkDeadline(now)
		}
		clear(list)
	}
}
