package jsworker

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// pool is a set of isolates running one version of a worker's bundle.
// The first isolate is started by newPool (it checks the bundle's
// exports); the others start in the background, and a request for one
// waits for it, so a worker answers its first request after one isolate
// has started. An isolate that closed itself (past its memory limit) is
// replaced by a fresh one when next asked for.
type pool struct {
	v      *version
	kind   string
	detect bool
	slots  []atomic.Pointer[isoState]
	ready  []chan struct{} // closed when slot k was first filled (or failed)
	mu     sync.Mutex      // serialises replacements
	closed atomic.Bool
}

// newPool starts n isolates: the first before it returns, the others in
// the background.
func newPool(v *version, n int, kind string, detectHangs bool) (*pool, error) {
	p := &pool{v: v, kind: kind, detect: detectHangs, slots: make([]atomic.Pointer[isoState], n), ready: make([]chan struct{}, n)}
	for k := range p.ready {
		p.ready[k] = make(chan struct{})
	}
	st, err := p.start(0, true)
	if err != nil {
		return nil, err
	}
	p.slots[0].Store(st)
	close(p.ready[0])
	for k := 1; k < n; k++ {
		go p.fill(k)
	}
	return p, nil
}

// fill starts isolate k in the background; on failure the slot keeps
// isolate 0's state, so that requests still find an isolate.
func (p *pool) fill(k int) {
	defer close(p.ready[k])
	st, err := p.start(k, false)
	if err != nil {
		p.v.cfg.Logger.Error("start an isolate", "pool", p.kind, "slot", k, "err", err)
		p.slots[k].Store(p.slots[0].Load())
		return
	}
	if p.closed.Load() {
		st.iso.Close()
		return
	}
	p.slots[k].Store(st)
}

// start makes isolate k and runs the bundle in it; first says it is the
// version's first isolate (see isoState.load).
func (p *pool) start(k int, first bool) (*isoState, error) {
	iso, err := jsrt.New(jsrt.Config{
		Name:        fmt.Sprintf("%s/%s#%d", p.v.cfg.Name, p.kind, k),
		Extensions:  extensions(p.v.cfg.NodeCompat),
		CPULimit:    p.v.cfg.CPULimit,
		MemoryLimit: p.v.cfg.MemoryLimit,
		Logger:      p.v.cfg.Logger,
		DetectHangs: p.detect,
	})
	if err != nil {
		return nil, err
	}
	st := &isoState{v: p.v, iso: iso, envs: map[string]envObject{}}
	if err := st.load(context.Background(), first); err != nil {
		iso.Close()
		return nil, err
	}
	return st, nil
}

// slot returns isolate k, replacing it first when it closed itself.
func (p *pool) slot(k int) *isoState {
	<-p.ready[k]
	st := p.slots[k].Load()
	if st == nil {
		return p.slots[0].Load() // closed before it started
	}
	if !st.iso.Closed() || p.closed.Load() {
		return st
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if cur := p.slots[k].Load(); cur != st {
		return cur
	}
	fresh, err := p.start(k, false)
	if err != nil {
		p.v.cfg.Logger.Error("restart an isolate", "isolate", st.iso.Name(), "err", err)
		return st
	}
	p.slots[k].Store(fresh)
	p.v.cfg.Logger.Warn("isolate restarted", "isolate", fresh.iso.Name())
	return fresh
}

// pick returns the isolate with the fewest events in flight, starting the
// search after the last pick so that ties spread. Isolates still starting
// are passed over.
func (p *pool) pick() *isoState {
	n := len(p.slots)
	start := int(p.next())
	var best *isoState
	var bestLoad int64
	for k := 0; k < n; k++ {
		i := (start + k) % n
		select {
		case <-p.ready[i]:
		default:
			continue
		}
		st := p.slot(i)
		if l := st.iso.InFlight(); best == nil || l < bestLoad {
			best, bestLoad = st, l
			if l == 0 {
				break
			}
		}
	}
	return best
}

var picks atomic.Uint32

func (p *pool) next() uint32 { return picks.Add(1) }

// at returns the isolate for key (an object's id hash).
func (p *pool) at(key uint64) *isoState {
	return p.slot(int(key % uint64(len(p.slots))))
}

func (p *pool) close() {
	p.closed.Store(true)
	for k := range p.slots {
		<-p.ready[k]
		if st := p.slots[k].Load(); st != nil {
			st.iso.Close()
		}
	}
}

// newLazyPool is a pool whose isolates all start in the background.
func newLazyPool(v *version, n int, kind string, detectHangs bool) *pool {
	p := &pool{v: v, kind: kind, detect: detectHangs, slots: make([]atomic.Pointer[isoState], n), ready: make([]chan struct{}, n)}
	for k := range p.ready {
		p.ready[k] = make(chan struct{})
		go p.fill(k)
	}
	return p
}
