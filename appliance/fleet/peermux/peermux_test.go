package peermux

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// pair is a Listener behind a real HTTP server and a Pool dialing it.
type pair struct {
	l    *Listener
	pool *Pool
	addr string
}

// newPair starts a server whose upgrade handler requires the header the
// pool's signer sets.
func newPair(t *testing.T) *pair {
	t.Helper()
	srv := httptest.NewServer(nil)
	l := NewListener(srv.Listener.Addr())
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != Path || r.Header.Get("X-Signed") != "yes" {
			http.Error(w, "unsigned", http.StatusUnauthorized)
			return
		}
		l.ServeHTTP(w, r)
	})
	addr := srv.Listener.Addr().String()
	var d net.Dialer
	pool := NewPool(func(ctx context.Context, member, addr string) (net.Conn, error) {
		return d.DialContext(ctx, "tcp", addr)
	}, func(r *http.Request) (*http.Request, error) {
		r = r.Clone(r.Context())
		r.Header.Set("X-Signed", "yes")
		return r, nil
	})
	t.Cleanup(func() {
		pool.Close()
		l.Close()
		l.CloseSessions()
		srv.Close()
	})
	return &pair{l: l, pool: pool, addr: addr}
}

func (p *pair) open(t *testing.T) *Stream {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := p.pool.Open(ctx, "m", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// openAccepted opens a stream and accepts it on the other side.
func (p *pair) openAccepted(t *testing.T) (*Stream, net.Conn) {
	t.Helper()
	got := make(chan net.Conn, 1)
	go func() {
		c, _ := p.l.Accept()
		got <- c
	}()
	st := p.open(t)
	c := <-got
	if c == nil {
		t.Fatal("no stream accepted")
	}
	return st, c
}

// echo accepts streams and echoes each until its end, then closes it.
func (p *pair) echo() {
	go func() {
		for {
			c, err := p.l.Accept()
			if err != nil {
				return
			}
			go func() {
				io.Copy(c, c)
				c.Close()
			}()
		}
	}()
}

func TestStreamsEchoPastTheirWindow(t *testing.T) {
	p := newPair(t)
	p.echo()
	data := make([]byte, 4*Window+123)
	rand.Read(data)
	for range 3 {
		st := p.open(t)
		st.SetDeadline(time.Now().Add(10 * time.Second))
		go func() {
			st.Write(data)
			st.CloseWrite()
		}()
		got, err := io.ReadAll(st)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, data) {
			t.Fatalf("echoed %d bytes, want the %d sent", len(got), len(data))
		}
		st.Close()
	}
	p.pool.mu.Lock()
	n := len(p.pool.sessions)
	p.pool.mu.Unlock()
	if n != 1 {
		t.Fatalf("%d sessions for one peer, want 1", n)
	}
}

func TestASlowReaderStallsOnlyItsStream(t *testing.T) {
	p := newPair(t)
	stuck, _ := p.openAccepted(t) // never read
	stuck.SetWriteDeadline(time.Now().Add(500 * time.Millisecond))
	n, err := stuck.Write(make([]byte, 2*Window))
	if !errors.Is(err, os.ErrDeadlineExceeded) || n != Window {
		t.Fatalf("write to a stream nobody reads: %d bytes, %v; want %d bytes then a deadline", n, err, Window)
	}
	p.echo()
	st := p.open(t)
	st.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := st.Write([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if _, err := io.ReadFull(st, buf); err != nil || string(buf) != "ping" {
		t.Fatalf("other stream: %q, %v", buf, err)
	}
}

func TestADeadlineWakesABlockedRead(t *testing.T) {
	p := newPair(t)
	st, _ := p.openAccepted(t)
	done := make(chan error, 1)
	go func() {
		_, err := st.Read(make([]byte, 1))
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	st.SetReadDeadline(time.Unix(1, 0))
	select {
	case err := <-done:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("read: %v, want a deadline", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("a blocked read did not wake to a deadline in the past")
	}
	st.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	start := time.Now()
	if _, err := st.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) || time.Since(start) < 90*time.Millisecond {
		t.Fatalf("read: %v after %s, want a deadline after 100ms", err, time.Since(start))
	}
}

func TestNotifyAndReadNow(t *testing.T) {
	p := newPair(t)
	st, peer := p.openAccepted(t)
	if n, err := st.ReadNow(make([]byte, 8)); n != 0 || err != nil {
		t.Fatalf("ReadNow on an idle stream: %d, %v", n, err)
	}
	fired := make(chan struct{}, 2)
	st.Notify(func() { fired <- struct{}{} })
	select {
	case <-fired:
		t.Fatal("notified with nothing to read")
	case <-time.After(50 * time.Millisecond):
	}
	peer.Write([]byte("hi"))
	select {
	case <-fired:
	case <-time.After(2 * time.Second):
		t.Fatal("not notified of bytes")
	}
	buf := make([]byte, 8)
	if n, err := st.ReadNow(buf); string(buf[:n]) != "hi" || err != nil {
		t.Fatalf("ReadNow: %q, %v", buf[:n], err)
	}
	peer.Close()
	time.Sleep(50 * time.Millisecond)
	st.Notify(func() { fired <- struct{}{} }) // readable already: its end
	select {
	case <-fired:
	case <-time.After(2 * time.Second):
		t.Fatal("not notified of the end")
	}
	if _, err := st.ReadNow(buf); err != io.EOF {
		t.Fatalf("ReadNow after the peer closed: %v, want EOF", err)
	}
	if _, err := st.Write([]byte("x")); err == nil {
		t.Fatal("write to a stream the peer closed succeeded")
	}
}

func TestASessionThatEndsEndsItsStreamsAndIsMadeAgain(t *testing.T) {
	p := newPair(t)
	p.echo()
	st := p.open(t)
	st.SetReadDeadline(time.Now().Add(5 * time.Second))
	p.l.CloseSessions()
	if _, err := st.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read on a stream whose session ended: %v, want its end", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		st2, err := p.pool.Open(ctx, "m", p.addr)
		cancel()
		if err == nil {
			st2.SetDeadline(time.Now().Add(5 * time.Second))
			st2.Write([]byte("ok"))
			buf := make([]byte, 2)
			if _, err := io.ReadFull(st2, buf); err != nil {
				t.Fatal(err)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no stream over a new session: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestAPeerThatDoesNotAcceptFailsTheOpenInTime(t *testing.T) {
	p := newPair(t)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := p.pool.Open(ctx, "m", p.addr); err == nil {
		t.Fatal("opened a stream nobody accepted")
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Fatalf("open took %s", el)
	}
}

func TestAnUnsignedUpgradeIsRefused(t *testing.T) {
	p := newPair(t)
	p.pool.sign = nil
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := p.pool.Open(ctx, "m", p.addr)
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "401") {
		t.Fatalf("unsigned upgrade: %v, want refused with 401", err)
	}
	// Not asked again for a while: a peer without sessions (an older
	// version) costs later tunnels nothing.
	p.pool.dial = func(context.Context, string, string) (net.Conn, error) {
		t.Fatal("dialed a peer that refused the upgrade just before")
		return nil, nil
	}
	if _, err := p.pool.Open(ctx, "m", p.addr); !errors.Is(err, ErrRefused) {
		t.Fatalf("second open: %v, want ErrRefused at once", err)
	}
}

func TestAnOpenGivenUpByItsCallerLeavesTheSession(t *testing.T) {
	p := newPair(t)
	live, peer := p.openAccepted(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := p.pool.Open(ctx, "m", p.addr); !errors.Is(err, context.Canceled) {
		t.Fatalf("open whose caller went away: %v", err)
	}
	go p.l.Accept() // the abandoned stream
	live.SetDeadline(time.Now().Add(5 * time.Second))
	peer.Write([]byte("still here"))
	buf := make([]byte, 10)
	if _, err := io.ReadFull(live, buf); err != nil {
		t.Fatalf("a stream of the session after another's open was given up: %v", err)
	}
}

func TestStreamsWaitingWhenTheListenerClosesAreRefused(t *testing.T) {
	p := newPair(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		_, err := p.pool.Open(ctx, "m", p.addr)
		errc <- err
	}()
	time.Sleep(200 * time.Millisecond) // opened, not accepted
	p.l.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, errRefused) {
			t.Fatalf("open while the listener closed: %v, want refused", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("an open waiting for Accept was not refused when the listener closed")
	}
}

// TestManyStreamsAtOnce runs many echoing streams over one session at
// once, with writes of every size and slow readers among them: every
// stream gets back exactly what it sent.
func TestManyStreamsAtOnce(t *testing.T) {
	p := newPair(t)
	p.echo()
	const streams = 40
	errs := make(chan error, streams)
	for i := range streams {
		go func() {
			errs <- func() error {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				st, err := p.pool.Open(ctx, "m", p.addr)
				if err != nil {
					return err
				}
				defer st.Close()
				st.SetDeadline(time.Now().Add(20 * time.Second))
				data := make([]byte, 1+i*17000)
				rand.Read(data)
				go func() {
					for rest := data; len(rest) > 0; {
						n := min(len(rest), 1+len(rest)%5000)
						if _, err := st.Write(rest[:n]); err != nil {
							return
						}
						rest = rest[n:]
					}
					st.CloseWrite()
				}()
				var got bytes.Buffer
				buf := make([]byte, 1+i*97)
				for {
					n, err := st.Read(buf)
					got.Write(buf[:n])
					if err == io.EOF {
						break
					}
					if err != nil {
						return err
					}
					if i%4 == 0 {
						time.Sleep(time.Millisecond) // a slow reader
					}
				}
				if !bytes.Equal(got.Bytes(), data) {
					return errors.New("echo differs from what was sent")
				}
				return nil
			}()
		}()
	}
	for range streams {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
