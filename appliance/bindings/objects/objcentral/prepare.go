package objcentral

import (
	"context"
	"sync"

	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
	"github.com/dwk/fleet/appliance/process/sqlitedb"
	"github.com/dwk/fleet/appliance/worker"
)

// A placer with a store (Placer.Preparing) has the store get an object's
// local copy ready while it acquires the object's lease, which costs a
// round trip to the coordination database: the copy's cache entry, and,
// when the cache holds no copy, an empty one, opened, which a new object
// (most objects acquired are) then starts from. Open uses what was
// prepared; a failed acquisition undoes it.

// prepared is an object's local copy being got ready.
type prepared struct {
	done  chan struct{} // closed when what follows is set
	path  string
	local *copyMeta
	empty *objlocal.DB // an empty copy at path, opened, when local is nil
	err   error        // the cache entry was not acquired
}

// preps are the copies being got ready, by object name.
type preps struct {
	mu sync.Mutex
	m  map[string]*prepared
}

// prepare starts getting id's local copy ready and returns a function
// that undoes it unless Open has taken it; the function may be called
// more than once.
func (s *Store) prepare(id worker.ObjectID) (undo func()) {
	name := s.Namespace(id)
	p := &prepared{done: make(chan struct{})}
	s.preps.mu.Lock()
	if s.preps.m == nil {
		s.preps.m = map[string]*prepared{}
	}
	if s.preps.m[name] != nil {
		// One is under way (a concurrent acquisition): leave it be.
		s.preps.mu.Unlock()
		return func() {}
	}
	s.preps.m[name] = p
	s.preps.mu.Unlock()
	go func() {
		defer close(p.done)
		p.path, p.local, p.err = s.cache.acquire(name)
		if p.err != nil || p.local != nil {
			return
		}
		if sqlitedb.CreateEmpty(p.path, false) != nil {
			return
		}
		if db, err := objlocal.OpenFile(context.Background(), p.path, copyOptions); err == nil {
			p.empty = db
		}
	}()
	return func() {
		if s.takePrepared(name, p) != nil {
			p.discard()
			if p.err == nil {
				s.cache.release(name, p.local)
			}
		}
	}
}

// takePrepared removes the copy prepared for name (p, or any when p is
// nil) and returns it, once ready; nil when there is none.
func (s *Store) takePrepared(name string, p *prepared) *prepared {
	s.preps.mu.Lock()
	q := s.preps.m[name]
	if q == nil || p != nil && q != p {
		s.preps.mu.Unlock()
		return nil
	}
	delete(s.preps.m, name)
	s.preps.mu.Unlock()
	<-q.done
	return q
}

// discard closes and removes the empty copy, if one was made.
func (p *prepared) discard() {
	if p.empty != nil {
		p.empty.Close()
		p.empty = nil
		objlocal.RemoveFiles(p.path)
	}
}
