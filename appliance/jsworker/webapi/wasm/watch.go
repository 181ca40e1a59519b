package wasm

import (
	"context"
	"errors"
	"fmt"
	"time"
	"weak"

	"github.com/tetratelabs/wazero/api"
)

// Stopping runaway calls. jsrt's CPU limit interrupts goja, which does not
// run while WebAssembly does. So the outermost call into WebAssembly (one
// made from JavaScript that no WebAssembly called) arms a watch: a timer
// for what is left of the event's CPU budget, and the event's context.
// When either fires, every instance of the isolate gets its stop flag set
// (instrument.go), the running code traps at its next loop iteration, and
// the call throws a RuntimeError that says why. The flags are cleared when
// the outermost call returns, so the instances remain usable (a stopped
// call may have left an instance's memory half updated, as any trap may).

// Why a call was stopped.
var (
	errStopCPU = errors.New("the event exceeded its CPU time limit while WebAssembly was running")
)

// stopCancelled is why a call stops when its event's context ends.
func stopCancelled(ctx context.Context) error {
	return fmt.Errorf("the event was cancelled while WebAssembly was running: %w", context.Cause(ctx))
}

// callWatch is the outermost call's timer and context watch.
type callWatch struct {
	timer   *time.Timer
	unwatch func() bool
}

// enter starts a call into WebAssembly: the outermost one arms the watch.
// It throws a RuntimeError when the event is already cancelled or out of
// CPU time. Pair it with leave.
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
	s.mu.Lock()
	s.gen++
	gen := s.gen
	s.armed = true
	s.stopErr = nil
	s.deadline = time.Now().Add(budget)
	s.mu.Unlock()
	if s.watch.timer == nil {
		s.watch.timer = time.AfterFunc(budget, func() { s.stopCurrent(errStopCPU) })
	} else {
		s.watch.timer.Reset(budget)
	}
	s.watch.unwatch = context.AfterFunc(ctx, func() { s.stop(gen, stopCancelled(ctx)) })
	s.depth = 1
}

// leave ends a call into WebAssembly and returns why it was stopped, if it
// was: for an inner call, the reason the outermost one is being stopped.
func (s *state) leave() error {
	s.depth--
	if s.depth > 0 {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.stopErr
	}
	s.watch.timer.Stop()
	s.watch.unwatch()
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.stopErr
	s.armed, s.stopErr = false, nil
	if err != nil {
		s.setStopFlags(0)
	}
	return err
}

// stopCurrent stops the call running now if it is past its deadline: the
// timer is reused, and Stop does not wait for a callback already started,
// which must not stop a later call.
func (s *state) stopCurrent(reason error) {
	s.mu.Lock()
	gen, due := s.gen, !time.Now().Before(s.deadline)
	s.mu.Unlock()
	if due {
		s.stop(gen, reason)
	}
}

// stop stops the outermost call number gen, if it is still running.
func (s *state) stop(gen uint64, reason error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.armed || gen != s.gen || s.stopErr != nil {
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
