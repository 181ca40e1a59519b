package libsql

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// httpStreams is the registry of Hrana-over-HTTP streams, addressed by
// batons. A stream is either available (waiting for its next request),
// acquired (a request runs on it) or expired (closed for inactivity, kept
// a while so that its baton gets STREAM_EXPIRED rather than "invalid").
type httpStreams struct {
	codec batonCodec
	now   func() time.Time
	idle  time.Duration

	mu sync.Mutex
	m  map[uint64]*httpEntry
}

type entryState int

const (
	entryAvailable entryState = iota
	entryAcquired
	entryExpired
)

// httpEntry is one registered stream.
type httpEntry struct {
	id    uint64
	st    *stream
	state entryState
	// seq is the sequence number the next baton carries.
	seq uint64
	// deadline is the expiry time of an available entry, or the removal
	// time of an expired one.
	deadline time.Time
	// released is closed when an acquisition ends.
	released chan struct{}
}

// expiredRetention is how long an expired stream's baton is remembered.
const expiredRetention = 5 * time.Minute

// releaseWait bounds how long a request waits for the previous request on
// the same stream to release it (a client may send its next request as
// soon as it has read a cursor response, before the handler returns).
const releaseWait = 5 * time.Second

func newHTTPStreams(now func() time.Time, idle time.Duration) *httpStreams {
	r := &httpStreams{now: now, idle: idle, m: map[uint64]*httpEntry{}}
	rand.Read(r.codec.key[:])
	return r
}

func randomUint64() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.BigEndian.Uint64(b[:])
}

// add registers a new stream, acquired by the caller.
func (r *httpStreams) add(st *stream) *httpEntry {
	r.mu.Lock()
	defer r.mu.Unlock()
	id := randomUint64()
	for r.m[id] != nil {
		id = randomUint64()
	}
	e := &httpEntry{id: id, st: st, state: entryAcquired, seq: randomUint64(), released: make(chan struct{})}
	r.m[id] = e
	return e
}

// acquire finds the stream of a baton and acquires it. A baton issued but
// not yet released waits for the release; an old baton is "reused".
func (r *httpStreams) acquire(ctx context.Context, baton string) (*httpEntry, error) {
	id, seq, err := r.codec.decode(baton)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, releaseWait)
	defer cancel()
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		e := r.m[id]
		switch {
		case e == nil:
			return nil, errBatonInvalid("no such stream")
		case e.state == entryExpired:
			return nil, hrana.Errorf(hrana.CodeStreamExpired, "The stream has expired due to inactivity")
		case e.seq != seq:
			return nil, hrana.Protocolf("Received a baton that has already been used")
		case e.state == entryAcquired:
			ch := e.released
			r.mu.Unlock()
			select {
			case <-ch:
			case <-ctx.Done():
				r.mu.Lock()
				return nil, hrana.Protocolf("Received a baton whose stream is still busy with another request")
			}
			r.mu.Lock()
			continue
		}
		e.state = entryAcquired
		e.seq++
		e.released = make(chan struct{})
		return e, nil
	}
}

// baton returns the baton for the request after the current one.
func (r *httpStreams) baton(e *httpEntry) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.codec.encode(e.id, e.seq)
}

// release ends an acquisition. A closed stream is forgotten; an open one
// becomes available until it expires.
func (r *httpStreams) release(e *httpEntry, closed bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if closed {
		delete(r.m, e.id)
	} else {
		e.state = entryAvailable
		e.deadline = r.now().Add(r.idle)
	}
	close(e.released)
}

// expire closes the available streams idle past their deadline and
// forgets long-expired ones. It returns the number of streams closed.
func (r *httpStreams) expire() int {
	now := r.now()
	var toClose []*stream
	r.mu.Lock()
	for id, e := range r.m {
		if now.Before(e.deadline) {
			continue
		}
		switch e.state {
		case entryAvailable:
			e.state = entryExpired
			e.deadline = now.Add(expiredRetention)
			toClose = append(toClose, e.st)
		case entryExpired:
			delete(r.m, id)
		}
	}
	r.mu.Unlock()
	for _, st := range toClose {
		st.close()
	}
	return len(toClose)
}

// run expires streams every interval until ctx is done.
func (r *httpStreams) run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			r.expire()
		}
	}
}

// closeAll closes every available stream; acquired ones are closed by
// their namespace's shutdown.
func (r *httpStreams) closeAll() {
	var toClose []*stream
	r.mu.Lock()
	for id, e := range r.m {
		if e.state == entryAvailable {
			toClose = append(toClose, e.st)
			delete(r.m, id)
		}
	}
	r.mu.Unlock()
	for _, st := range toClose {
		st.close()
	}
}
