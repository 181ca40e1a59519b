package jsworker

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// pool is a set of isolates running one version of a worker's bundle.
type pool struct {
	states []*isoState
	next   atomic.Uint32
}

// newPool starts n isolates and loads the script into each.
func newPool(v *version, n int, kind string, detectHangs bool) (*pool, error) {
	p := &pool{}
	for k := 0; k < n; k++ {
		iso, err := jsrt.New(jsrt.Config{
			Name:        fmt.Sprintf("%s/%s#%d", v.cfg.Name, kind, k),
			Extensions:  extensions(v.cfg.NodeCompat),
			CPULimit:    v.cfg.CPULimit,
			Logger:      v.cfg.Logger,
			DetectHangs: detectHangs,
		})
		if err != nil {
			p.close()
			return nil, err
		}
		st := &isoState{v: v, iso: iso, envs: map[any]goja.Value{}}
		p.states = append(p.states, st)
		if err := st.load(context.Background()); err != nil {
			p.close()
			return nil, err
		}
	}
	return p, nil
}

// pick returns the isolate with the fewest events in flight, starting the
// search after the last pick so that ties spread.
func (p *pool) pick() *isoState {
	n := uint32(len(p.states))
	start := p.next.Add(1)
	best := p.states[start%n]
	bestLoad := best.iso.InFlight()
	for k := uint32(1); k < n && bestLoad > 0; k++ {
		st := p.states[(start+k)%n]
		if l := st.iso.InFlight(); l < bestLoad {
			best, bestLoad = st, l
		}
	}
	return best
}

// at returns the isolate for key (an object's id hash).
func (p *pool) at(key uint64) *isoState {
	return p.states[key%uint64(len(p.states))]
}

func (p *pool) close() {
	for _, st := range p.states {
		st.iso.Close()
	}
}
