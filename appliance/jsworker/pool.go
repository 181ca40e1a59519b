package jsworker

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// pool is a set of isolates running one version of a worker's bundle. An
// isolate that closed itself (past its memory limit) is replaced by a
// fresh one when next asked for.
type pool struct {
	v      *version
	kind   string
	detect bool
	slots  []atomic.Pointer[isoState]
	mu     sync.Mutex // serialises replacements
	closed atomic.Bool
}

// newPool starts n isolates and loads the script into each.
func newPool(v *version, n int, kind string, detectHangs bool) (*pool, error) {
	p := &pool{v: v, kind: kind, detect: detectHangs, slots: make([]atomic.Pointer[isoState], n)}
	for k := 0; k < n; k++ {
		st, err := p.start(k)
		if err != nil {
			p.close()
			return nil, err
		}
		p.slots[k].Store(st)
	}
	return p, nil
}

// start makes isolate k and runs the bundle in it.
func (p *pool) start(k int) (*isoState, error) {
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
	st := &isoState{v: p.v, iso: iso, envs: map[any]goja.Value{}}
	if err := st.load(context.Background()); err != nil {
		iso.Close()
		return nil, err
	}
	return st, nil
}

// slot returns isolate k, replacing it first when it closed itself.
func (p *pool) slot(k int) *isoState {
	st := p.slots[k].Load()
	if !st.iso.Closed() || p.closed.Load() {
		return st
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if cur := p.slots[k].Load(); cur != st {
		return cur
	}
	fresh, err := p.start(k)
	if err != nil {
		p.v.cfg.Logger.Error("restart an isolate", "isolate", st.iso.Name(), "err", err)
		return st
	}
	p.slots[k].Store(fresh)
	p.v.cfg.Logger.Warn("isolate restarted", "isolate", fresh.iso.Name())
	return fresh
}

// pick returns the isolate with the fewest events in flight, starting the
// search after the last pick so that ties spread.
func (p *pool) pick() *isoState {
	n := len(p.slots)
	start := int(p.next())
	best := p.slot(start % n)
	bestLoad := best.iso.InFlight()
	for k := 1; k < n && bestLoad > 0; k++ {
		st := p.slot((start + k) % n)
		if l := st.iso.InFlight(); l < bestLoad {
			best, bestLoad = st, l
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
		if st := p.slots[k].Load(); st != nil {
			st.iso.Close()
		}
	}
}
