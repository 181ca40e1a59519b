package dwkdirect

import (
	"errors"
	"fmt"
	"sync"
	"syscall"
	"time"
)

// pollEvents is how many readiness events one wait takes at most.
const pollEvents = 128

// pollRetry is the pause before waiting again after a failed wait.
const pollRetry = 100 * time.Millisecond

// errForgotten: a side is armed after its tunnel ended.
var errForgotten = errors.New("tunnel side already let go")

// poller waits, on one goroutine for the whole process, for the sockets of
// idle tunnels to become readable, and then starts a relay for the side
// that is: an idle tunnel runs no goroutine. Each socket is registered
// one-shot in its own epoll instance (the Go runtime's netpoller keeps
// its own registration); a relay that has copied what was ready arms it
// again.
type poller struct {
	epfd int

	mu      sync.Mutex
	next    uint64
	waiting map[uint64]*side // armed sides by key
}

var (
	pollerOnce sync.Once
	thePoller  *poller
	errPoller  error
)

// sharedPoller returns the process's poller, starting it the first time.
func sharedPoller() (*poller, error) {
	pollerOnce.Do(func() {
		fd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
		if err != nil {
			errPoller = fmt.Errorf("tunnel poller: %w", err)
			return
		}
		thePoller = &poller{epfd: fd, waiting: make(map[uint64]*side)}
		go thePoller.loop()
	})
	return thePoller, errPoller
}

// loop hands every ready side to a relay of its own.
func (p *poller) loop() {
	events := make([]syscall.EpollEvent, pollEvents)
	for {
		n, err := syscall.EpollWait(p.epfd, events, -1)
		if err != nil {
			if !errors.Is(err, syscall.EINTR) {
				// Not expected from a valid epoll instance: wait
				// again after a pause rather than leave the armed
				// sides stranded.
				time.Sleep(pollRetry)
			}
			continue
		}
		for _, ev := range events[:n] {
			key := uint64(uint32(ev.Fd)) | uint64(uint32(ev.Pad))<<32
			p.mu.Lock()
			s := p.waiting[key]
			delete(p.waiting, key)
			p.mu.Unlock()
			if s != nil {
				go s.t.ts.relay(s)
			}
		}
	}
}

// arm registers s (first time) or re-arms it, so that the next bytes (or
// the end) on its source start a relay. It fails when the source is
// closed.
func (p *poller) arm(s *side) error {
	p.mu.Lock()
	if s.gone {
		p.mu.Unlock()
		return fmt.Errorf("arm tunnel socket: %w", errForgotten)
	}
	first := s.key == 0
	if first {
		p.next++
		s.key = p.next
	}
	p.waiting[s.key] = s
	p.mu.Unlock()
	op := syscall.EPOLL_CTL_MOD
	if first {
		op = syscall.EPOLL_CTL_ADD
	}
	ev := syscall.EpollEvent{
		Events: syscall.EPOLLIN | syscall.EPOLLRDHUP | syscall.EPOLLONESHOT,
		Fd:     int32(uint32(s.key)), Pad: int32(uint32(s.key >> 32)),
	}
	var cerr error
	err := s.wait.Control(func(fd uintptr) { cerr = syscall.EpollCtl(p.epfd, op, int(fd), &ev) })
	if err == nil {
		err = cerr
	}
	if err != nil {
		p.mu.Lock()
		delete(p.waiting, s.key)
		p.mu.Unlock()
		return fmt.Errorf("arm tunnel socket: %w", err)
	}
	return nil
}

// forget unregisters s, if its source is still open, and drops it from
// the armed sides; s cannot be armed again. A relay the poller started
// for it just before runs anyway.
func (p *poller) forget(s *side) {
	p.mu.Lock()
	s.gone = true
	key := s.key
	delete(p.waiting, key)
	p.mu.Unlock()
	if key == 0 {
		return
	}
	// A closed socket left the epoll instance when it was closed.
	_ = s.wait.Control(func(fd uintptr) { _ = syscall.EpollCtl(p.epfd, syscall.EPOLL_CTL_DEL, int(fd), nil) })
}
