package jsrt

import (
	"runtime/metrics"
	"sync"
	"time"
)

// watchdogTick is how often the watchdog looks at the running jobs: the
// precision of the CPU limit.
const watchdogTick = 10 * time.Millisecond

// watchdog interrupts jobs whose event ran past its CPU limit. One
// goroutine serves every isolate of the process; it runs while any loop
// does.
var watchdog struct {
	mu       sync.Mutex
	isolates map[*Isolate]struct{}
	running  bool
}

// watch adds i to the watchdog, starting it if needed.
func watch(i *Isolate) {
	watchdog.mu.Lock()
	defer watchdog.mu.Unlock()
	if watchdog.isolates == nil {
		watchdog.isolates = map[*Isolate]struct{}{}
	}
	watchdog.isolates[i] = struct{}{}
	if !watchdog.running {
		watchdog.running = true
		go watchLoop()
	}
}

// unwatch removes i; the watchdog stops when none is left.
func unwatch(i *Isolate) {
	watchdog.mu.Lock()
	defer watchdog.mu.Unlock()
	delete(watchdog.isolates, i)
}

func watchLoop() {
	t := time.NewTicker(watchdogTick)
	defer t.Stop()
	var list []*Isolate
	for now := range t.C {
		watchdog.mu.Lock()
		if len(watchdog.isolates) == 0 {
			watchdog.running = false
			watchdog.mu.Unlock()
			return
		}
		list = list[:0]
		for i := range watchdog.isolates {
			list = append(list, i)
		}
		watchdog.mu.Unlock()
		for _, i := range list {
			i.checkSlice(now)
		}
	}
}

// checkSlice interrupts the running job when its event is past its CPU
// limit.
func (i *Isolate) checkSlice(now time.Time) {
	i.sliceMu.Lock()
	defer i.sliceMu.Unlock()
	ev := i.sliceEvent
	if ev == nil || i.interrupt != nil {
		return
	}
	used := time.Duration(ev.cpu.Load()) + now.Sub(i.sliceStart)
	if used > i.cfg.CPULimit {
		i.interrupt = ErrCPULimit
		i.rt.Interrupt(errInterrupted)
		return
	}
	if h := liveHeap(); h > i.sliceHeap && int64(h-i.sliceHeap) > i.cfg.MemoryLimit {
		i.interrupt = ErrMemoryLimit
		i.rt.Interrupt(errInterrupted)
	}
}

// liveHeap is the heap the last garbage collection found live: what a job
// grew it by is what the job kept.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
