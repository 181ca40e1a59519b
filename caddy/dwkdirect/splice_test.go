package dwkdirect

import (
	"bytes"
	"io"
	"net"
	"runtime"
	"testing"
	"time"

	"go.uber.org/zap"
)

// tcpPair returns the two ends of a loopback TCP connection.
func tcpPair(t *testing.T) (a, b net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	a, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	select {
	case b = <-accepted:
	case <-time.After(5 * time.Second):
		t.Fatal("accept timed out")
	}
	if b == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { a.Close(); b.Close() })
	return a, b
}

// openTunnel starts a tunnel between a client and a member and returns
// the client's end and the member's.
func openTunnel(t *testing.T, ts *tunnels) (client, member net.Conn, tn *tunnel) {
	t.Helper()
	client, fdClient := tcpPair(t)
	fdBack, member := tcpPair(t)
	tn = &tunnel{client: fdClient, back: fdBack}
	ts.start(tn)
	return client, member, tn
}

// readN reads n bytes from c within 5 s.
func readN(t *testing.T, c net.Conn, n int) []byte {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, n)
	if _, err := io.ReadFull(c, buf); err != nil {
		t.Fatalf("read %d bytes: %v", n, err)
	}
	return buf
}

// expectEOF checks that c ends cleanly within 5 s.
func expectEOF(t *testing.T, c net.Conn) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := c.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("read %d bytes, %v; want io.EOF", n, err)
	}
}

// waitFor polls cond for up to 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func openCount(ts *tunnels) int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return len(ts.open)
}

func TestTunnelRelaysBothWaysAndPassesHalfCloses(t *testing.T) {
	ts := newTunnels(zap.NewNop())
	client, member, _ := openTunnel(t, ts)

	big := bytes.Repeat([]byte("0123456789abcdef"), 10_000) // more than a buffer
	go client.Write(big)
	if got := readN(t, member, len(big)); !bytes.Equal(got, big) {
		t.Fatal("member got other bytes than the client sent")
	}
	if _, err := member.Write([]byte("pong")); err != nil {
		t.Fatal(err)
	}
	if got := readN(t, client, 4); string(got) != "pong" {
		t.Fatalf("client got %q", got)
	}

	// The client stops sending: the member sees the end and can still
	// answer.
	if err := client.(*net.TCPConn).CloseWrite(); err != nil {
		t.Fatal(err)
	}
	expectEOF(t, member)
	if _, err := member.Write([]byte("bye")); err != nil {
		t.Fatal(err)
	}
	if got := readN(t, client, 3); string(got) != "bye" {
		t.Fatalf("client got %q after its half-close", got)
	}
	member.Close()
	expectEOF(t, client)
	waitFor(t, "the tunnel is let go", func() bool { return openCount(ts) == 0 })
}

func TestTunnelEndsWhenOneSideBreaks(t *testing.T) {
	ts := newTunnels(zap.NewNop())
	client, member, _ := openTunnel(t, ts)
	if _, err := client.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	readN(t, member, 1)
	// A reset (not a clean end) ends both directions.
	client.(*net.TCPConn).SetLinger(0)
	client.Close()
	_ = member.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := member.Read(make([]byte, 1)); err == nil {
		t.Fatal("member's side still open after the client's connection was reset")
	}
	waitFor(t, "the tunnel is let go", func() bool { return openCount(ts) == 0 })
}

func TestIdleTunnelsRunNoGoroutine(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the tunnel poller is Linux only")
	}
	ts := newTunnels(zap.NewNop())
	// Start the shared poller before counting.
	c0, m0, _ := openTunnel(t, ts)
	c0.Write([]byte("a"))
	readN(t, m0, 1)

	const n = 50
	type pair struct{ client, member net.Conn }
	pairs := make([]pair, 0, n)
	before := runtime.NumGoroutine()
	for range n {
		c, m, _ := openTunnel(t, ts)
		pairs = append(pairs, pair{c, m})
	}
	for _, p := range pairs {
		if _, err := p.client.Write([]byte("ping")); err != nil {
			t.Fatal(err)
		}
		readN(t, p.member, 4)
		if _, err := p.member.Write([]byte("pong")); err != nil {
			t.Fatal(err)
		}
		readN(t, p.client, 4)
	}
	// Every relay has armed its socket again and ended: the idle tunnels
	// run no goroutine (the slack is for other goroutines of the test
	// binary).
	waitFor(t, "the relays end", func() bool { return runtime.NumGoroutine() <= before+2 })
	if got := openCount(ts); got != n+1 {
		t.Fatalf("%d tunnels open, want %d", got, n+1)
	}
	// And they still relay.
	if _, err := pairs[n-1].member.Write([]byte("again")); err != nil {
		t.Fatal(err)
	}
	if got := readN(t, pairs[n-1].client, 5); string(got) != "again" {
		t.Fatalf("client got %q", got)
	}
}

func TestStoppedTunnelsSendCloseFrames(t *testing.T) {
	ts := newTunnels(zap.NewNop())
	client, member, _ := openTunnel(t, ts)
	idle, idleMember, _ := openTunnel(t, ts)

	// A whole frame has passed each way on the first tunnel.
	fromClient, fromMember := frame(10, true), frame(10, false)
	if _, err := client.Write(fromClient); err != nil {
		t.Fatal(err)
	}
	readN(t, member, len(fromClient))
	if _, err := member.Write(fromMember); err != nil {
		t.Fatal(err)
	}
	readN(t, client, len(fromMember))

	ts.shutdown()
	for _, c := range []struct {
		name string
		conn net.Conn
		want []byte
	}{
		{"client", client, closeFrame(closeServiceRestart, "front door restarting", false)},
		{"member", member, closeFrame(closeGoingAway, "front door restarting", true)},
		{"idle client", idle, closeFrame(closeServiceRestart, "front door restarting", false)},
		{"idle member", idleMember, closeFrame(closeGoingAway, "front door restarting", true)},
	} {
		if got := readN(t, c.conn, len(c.want)); !bytes.Equal(got, c.want) {
			t.Errorf("%s got % x, want the close frame % x", c.name, got, c.want)
		}
		expectEOF(t, c.conn)
	}
	// A tunnel started after the handler stopped is closed at once.
	late, _, _ := openTunnel(t, ts)
	expectEOF(t, late)
}

func TestStopWaitsForAFrameBoundary(t *testing.T) {
	ts := newTunnels(zap.NewNop())
	client, member, _ := openTunnel(t, ts)
	// Half a frame from the member: no close frame may follow it.
	half := frame(100, false)[:20]
	if _, err := member.Write(half); err != nil {
		t.Fatal(err)
	}
	readN(t, client, len(half))
	ts.shutdown()
	expectEOF(t, client)
}

// armedSides is how many tunnel sides the shared poller waits for.
func armedSides(t *testing.T) int {
	t.Helper()
	p, err := sharedPoller()
	if err != nil {
		t.Skip("no tunnel poller here:", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.waiting)
}

func TestPollerLetsGoOfEndedTunnels(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the tunnel poller is Linux only")
	}
	before := armedSides(t)

	// Tunnels that end: closed by either end, or reset.
	closing := newTunnels(zap.NewNop())
	for i := range 20 {
		client, member, _ := openTunnel(t, closing)
		client.Write([]byte("x"))
		readN(t, member, 1)
		switch i % 3 {
		case 0:
			client.Close()
			member.Close()
		case 1:
			member.(*net.TCPConn).SetLinger(0)
			member.Close()
		default:
			client.(*net.TCPConn).CloseWrite()
			expectEOF(t, member)
			member.Close()
		}
	}
	waitFor(t, "the ended tunnels are let go", func() bool { return openCount(closing) == 0 })

	// Tunnels stopped while bytes flow both ways.
	busy := newTunnels(zap.NewNop())
	chunk := bytes.Repeat([]byte{0x82}, 1000)
	for range 20 {
		client, member, _ := openTunnel(t, busy)
		for _, c := range []net.Conn{client, member} {
			go func() {
				for {
					if _, err := c.Write(chunk); err != nil {
						return
					}
					time.Sleep(time.Millisecond)
				}
			}()
			go io.Copy(io.Discard, c)
		}
	}
	time.Sleep(50 * time.Millisecond)
	busy.shutdown()
	waitFor(t, "the poller waits for no side of an ended tunnel", func() bool { return armedSides(t) == before })
}
