package peermux

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// Dialer connects to member at addr (over the peer link: mutual TLS,
// checking the peer is member).
type Dialer func(ctx context.Context, member, addr string) (net.Conn, error)

// Signer authenticates a request to a peer (the peer link's MAC).
type Signer func(*http.Request) (*http.Request, error)

// connectTimeout bounds making a session when the caller set no deadline.
const connectTimeout = 10 * time.Second

// refusedFor is how long a peer that answered the upgrade with anything
// but 101 (a version without sessions, during a rolling deploy) is not
// asked again: Open fails at once, with ErrRefused.
const refusedFor = 30 * time.Second

// ErrRefused: the peer does not take sessions (it answered the upgrade
// with something else than 101 Switching Protocols).
var ErrRefused = errors.New("peermux: the peer refused the session upgrade")

// Pool opens streams to peers, over one session per peer, made on first
// use and made again once it has closed.
type Pool struct {
	dial Dialer
	sign Signer

	mu       sync.Mutex
	sessions map[peer]*pending
	refused  map[peer]time.Time // peers that refused the upgrade, until when it is not asked again
	closed   bool
}

type peer struct{ member, addr string }

// pending is a session being made (ready open) or made.
type pending struct {
	ready chan struct{}
	s     *Session
	err   error
}

// NewPool returns a pool that connects with dial and signs each session's
// upgrade request with sign.
func NewPool(dial Dialer, sign Signer) *Pool {
	return &Pool{dial: dial, sign: sign, sessions: make(map[peer]*pending), refused: make(map[peer]time.Time)}
}

// Open opens a stream to member at addr, making the session first if
// there is none; ctx bounds both (a peer that does not accept the stream
// in time has its session closed).
func (p *Pool) Open(ctx context.Context, member, addr string) (*Stream, error) {
	s, err := p.session(ctx, peer{member, addr})
	if err != nil {
		return nil, err
	}
	return s.Open(ctx)
}

// session returns the session to k, making it when there is none.
func (p *Pool) session(ctx context.Context, k peer) (*Session, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errors.New("peermux: pool closed")
	}
	if until, ok := p.refused[k]; ok {
		if time.Now().Before(until) {
			p.mu.Unlock()
			return nil, ErrRefused
		}
		delete(p.refused, k)
	}
	pd := p.sessions[k]
	if pd != nil {
		select {
		case <-pd.ready:
			if pd.err != nil || pd.s.Err() != nil {
				pd = nil
			}
		default:
		}
	}
	mine := pd == nil
	if mine {
		pd = &pending{ready: make(chan struct{})}
		p.sessions[k] = pd
	}
	p.mu.Unlock()
	if mine {
		// Made for every caller: the first one's going away does not
		// stop it, its deadline (or connectTimeout) does.
		deadline, ok := ctx.Deadline()
		if !ok {
			deadline = time.Now().Add(connectTimeout)
		}
		cctx, cancel := context.WithDeadline(context.WithoutCancel(ctx), deadline)
		pd.s, pd.err = p.connect(cctx, k)
		cancel()
		close(pd.ready)
		if pd.err != nil {
			p.drop(k, pd)
			if errors.Is(pd.err, ErrRefused) {
				p.mu.Lock()
				p.refused[k] = time.Now().Add(refusedFor)
				p.mu.Unlock()
			}
		} else {
			go func() {
				<-pd.s.Done()
				p.drop(k, pd)
			}()
		}
	}
	select {
	case <-pd.ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if pd.err != nil {
		return nil, pd.err
	}
	return pd.s, nil
}

// drop forgets pd if it is still k's.
func (p *Pool) drop(k peer, pd *pending) {
	p.mu.Lock()
	if p.sessions[k] == pd {
		delete(p.sessions, k)
	}
	p.mu.Unlock()
}

// connect dials k and upgrades the connection to a session.
func (p *Pool) connect(ctx context.Context, k peer) (*Session, error) {
	conn, err := p.dial(ctx, k.member, k.addr)
	if err != nil {
		return nil, err
	}
	s, err := upgrade(ctx, conn, p.sign, k.addr)
	if err != nil {
		conn.Close()
		return nil, err
	}
	return s, nil
}

// upgrade asks the peer at host to turn conn into a session.
func upgrade(ctx context.Context, conn net.Conn, sign Signer, host string) (*Session, error) {
	req := &http.Request{
		Method: http.MethodGet,
		URL:    &url.URL{Scheme: "http", Host: host, Path: Path},
		Proto:  "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Host:   host,
		Header: http.Header{"Connection": {"Upgrade"}, "Upgrade": {protocolName}},
	}
	req = req.WithContext(ctx)
	if sign != nil {
		signed, err := sign(req)
		if err != nil {
			return nil, err
		}
		req = signed
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	if err := req.Write(conn); err != nil {
		return nil, fmt.Errorf("peermux: upgrade: %w", err)
	}
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, req)
	if err != nil {
		return nil, fmt.Errorf("peermux: upgrade: %w", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSwitchingProtocols {
		if res.StatusCode == http.StatusServiceUnavailable {
			// Draining, or not ready: asked again next time.
			return nil, fmt.Errorf("peermux: upgrade: the peer answered %s", res.Status)
		}
		return nil, fmt.Errorf("%w: it answered %s", ErrRefused, res.Status)
	}
	if !stop() {
		return nil, ctx.Err()
	}
	_ = conn.SetDeadline(time.Time{})
	return newSession(conn, br, true, nil), nil
}

// Close closes every session and the streams over them.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	sessions := p.sessions
	p.sessions = make(map[peer]*pending)
	p.mu.Unlock()
	for _, pd := range sessions {
		go func() {
			<-pd.ready
			if pd.s != nil {
				pd.s.Close()
			}
		}()
	}
}
