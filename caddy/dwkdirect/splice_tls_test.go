package dwkdirect

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"net"
	"runtime"
	"testing"
	"time"

	"go.uber.org/zap"
)

// tlsPair returns the two ends of a loopback TLS connection, handshake
// done: the client end (as the front door dials a member) and the server
// end.
func tlsPair(t *testing.T) (client, server net.Conn) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "member"},
		DNSNames: []string{"member"}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert := tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
	a, b := tcpPair(t)
	tc := tls.Client(a, &tls.Config{InsecureSkipVerify: true, ServerName: "member"})
	ts := tls.Server(b, &tls.Config{Certificates: []tls.Certificate{cert}})
	done := make(chan error, 1)
	go func() { done <- ts.Handshake() }()
	if err := tc.Handshake(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return tc, ts
}

// TestIdleTLSTunnelsRunNoGoroutine: a tunnel whose member side is TLS
// waits on the socket beneath, so that idle it runs no goroutine either,
// and relays messages that span several records, and several records
// that arrive at once, whole.
func TestIdleTLSTunnelsRunNoGoroutine(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the tunnel poller is Linux only")
	}
	ts := newTunnels(zap.NewNop())
	open := func() (client, member net.Conn) {
		client, fdClient := tcpPair(t)
		fdBack, member := tlsPair(t)
		ts.start(&tunnel{client: fdClient, back: fdBack})
		return client, member
	}
	c0, m0 := open()
	c0.Write([]byte("a"))
	readN(t, m0, 1)

	const n = 20
	type pair struct{ client, member net.Conn }
	pairs := make([]pair, 0, n)
	before := runtime.NumGoroutine()
	for range n {
		c, m := open()
		pairs = append(pairs, pair{c, m})
	}
	big := bytes.Repeat([]byte("0123456789abcdef"), 5000) // 80,000 bytes: five records or more
	for i, p := range pairs {
		if _, err := p.client.Write([]byte("ping")); err != nil {
			t.Fatal(err)
		}
		readN(t, p.member, 4)
		if i%2 == 0 {
			// Many small records written at once arrive together.
			for range 50 {
				if _, err := p.member.Write([]byte("pong")); err != nil {
					t.Fatal(err)
				}
			}
			if got := readN(t, p.client, 200); !bytes.Equal(got, bytes.Repeat([]byte("pong"), 50)) {
				t.Fatalf("tunnel %d: client got %q", i, got)
			}
			continue
		}
		go p.member.Write(big)
		if got := readN(t, p.client, len(big)); !bytes.Equal(got, big) {
			t.Fatalf("tunnel %d: a message of several records arrived changed", i)
		}
	}
	// Each member side's handshake goroutine of the test has ended too.
	waitFor(t, "the relays end", func() bool { return runtime.NumGoroutine() <= before+2 })
	if _, err := pairs[n-1].member.Write([]byte("again")); err != nil {
		t.Fatal(err)
	}
	if got := readN(t, pairs[n-1].client, 5); string(got) != "again" {
		t.Fatalf("client got %q", got)
	}
	if _, err := pairs[0].client.Write([]byte("up")); err != nil {
		t.Fatal(err)
	}
	if got := readN(t, pairs[0].member, 2); string(got) != "up" {
		t.Fatalf("member got %q", got)
	}
}

// TestTLSTunnelRelaysRecordsReadBeforeItStarted: records the member sent
// right behind the handshake's answer, which the front door's TLS
// connection read from the socket along with it, reach the client although
// the socket has nothing more to announce.
func TestTLSTunnelRelaysRecordsReadBeforeItStarted(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the tunnel poller is Linux only")
	}
	ts := newTunnels(zap.NewNop())
	client, fdClient := tcpPair(t)
	fdBack, member := tlsPair(t)
	// Two records in one go: the answer, then the first message.
	go member.Write([]byte("answer"))
	go func() { time.Sleep(10 * time.Millisecond); member.Write([]byte("first message")) }()
	time.Sleep(100 * time.Millisecond)
	buf := make([]byte, 6)
	_ = fdBack.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadFull(fdBack, buf); err != nil || string(buf) != "answer" {
		t.Fatalf("answer: %q, %v", buf, err)
	}
	_ = fdBack.SetReadDeadline(time.Time{})
	ts.start(&tunnel{client: fdClient, back: fdBack})
	if got := readN(t, client, len("first message")); string(got) != "first message" {
		t.Fatalf("client got %q", got)
	}
}
