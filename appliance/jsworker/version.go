package jsworker

import (
	"sync"
	"sync/atomic"
)

// version is one loaded bundle of a worker, with its isolates. A reload
// makes a new version; the old one closes when nothing uses it.
type version struct {
	cfg     Config
	info    entryInfo
	classes map[string]classInfo // by JS class name, read when loaded
	pool    *pool                // stateless events
	objects *pool                // Durable Objects; nil when the worker defines none

	refs    atomic.Int64
	retired atomic.Bool
	closing sync.Once
}

func newVersion(cfg Config) (*version, error) {
	v := &version{cfg: cfg, classes: map[string]classInfo{}}
	v.refs.Store(1) // the worker's own reference, dropped when retired
	p, err := newPool(v, cfg.Isolates, "fetch", true)
	if err != nil {
		return nil, err
	}
	v.pool = p
	if len(cfg.Classes) > 0 {
		// The fetch pool's first isolate checked the classes; the object
		// isolates start in the background, the first object waits.
		v.objects = newLazyPool(v, cfg.ObjectIsolates, "objects", false)
	}
	return v, nil
}

func (v *version) acquire() { v.refs.Add(1) }

func (v *version) release() {
	if v.refs.Add(-1) == 0 {
		v.close()
	}
}

// retire drops the worker's reference: the version closes once its last
// event and object are done.
func (v *version) retire() {
	if v.retired.CompareAndSwap(false, true) {
		v.release()
	}
}

func (v *version) close() {
	v.closing.Do(func() {
		v.pool.close()
		if v.objects != nil {
			v.objects.close()
		}
	})
}
