package dwkdirect

// Tunnels over the peer link run over streams (package peermux): one
// session per member carries every tunnel to it, so an idle tunnel costs
// the front door its client socket and a stream, not a TLS connection
// and a handshake of its own. A stream says itself when it has bytes
// (Notify), so an idle one needs neither the poller nor a goroutine.

// waitable reports whether s can be waited for without a goroutine: a
// socket the poller watches, or a stream.
func (s *side) waitable() bool { return s.wait != nil || s.stream != nil }

// arm has the next bytes (or the end) on s's source start a relay.
func (s *side) arm() error {
	if s.stream == nil {
		return s.t.poll.arm(s)
	}
	ts := s.t.ts
	s.stream.Notify(func() { ts.relay(s) })
	return nil
}

// forget disarms s for good.
func (s *side) forget() {
	if s.stream == nil {
		s.t.poll.forget(s)
		return
	}
	s.stream.Notify(nil)
}

// relayStream copies what s's stream has, then arms it again.
func (ts *tunnels) relayStream(s *side) {
	for {
		buf := buffers.Get().(*[]byte)
		n, err := s.stream.ReadNow(*buf)
		if n == 0 {
			buffers.Put(buf)
			if err == nil {
				ts.idle(s)
			} else {
				ts.end(s, err)
			}
			return
		}
		if err = s.pass(buf, n, &buffers, err); err != nil {
			ts.end(s, err)
			return
		}
	}
}
