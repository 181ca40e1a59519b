package sshtarget_test

import (
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/provider/internal/deploy"
	"github.com/dwk/fleet/provider/internal/sshtarget"
	"github.com/dwk/fleet/test/sshd"
)

func config(h *sshd.Host) sshtarget.Config {
	return sshtarget.Config{Address: h.Address, Port: h.Port, User: h.User, PrivateKey: h.PrivateKey, HostKey: h.HostKey}
}

func TestRunAndForward(t *testing.T) {
	h := sshd.Start(t, 1)[0]
	ctx := context.Background()
	tg, err := sshtarget.Dial(ctx, config(h))
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()

	out, err := tg.Run(ctx, "cat; echo done", strings.NewReader("in "))
	if err != nil || string(out) != "in done\n" {
		t.Errorf("Run = %q, %v", out, err)
	}
	_, err = tg.Run(ctx, "echo oops >&2; exit 3", nil)
	if !deploy.IsCommandError(err) || !strings.Contains(err.Error(), "exit status 3: oops") {
		t.Errorf("failing command: %v", err)
	}

	cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := tg.Run(cctx, "sleep 30", nil); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 10*time.Second {
		t.Errorf("cancelled command: %v after %v", err, time.Since(start))
	}

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		if c, err := l.Accept(); err == nil {
			c.Write([]byte("through the tunnel"))
			c.Close()
		}
	}()
	c, err := tg.DialContext(ctx, "tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(c)
	c.Close()
	if string(b) != "through the tunnel" {
		t.Errorf("forwarded read %q", b)
	}
}

func TestDialFailuresNameTheCause(t *testing.T) {
	h := sshd.Start(t, 1)[0]
	_, otherHostKey := sshd.NewKey(t, "other-host")
	otherClient, _ := sshd.NewKey(t, "other-client")
	closed := freeClosedPort(t)
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		modify func(*sshtarget.Config)
		is     error
		want   string
	}{
		{"wrong host key", func(c *sshtarget.Config) { c.HostKey = otherHostKey }, sshtarget.ErrHostKeyMismatch, "SHA256:"},
		{"unknown client key", func(c *sshtarget.Config) { c.PrivateKey = otherClient }, sshtarget.ErrAuth, "authorized_keys"},
		{"bad host key", func(c *sshtarget.Config) { c.HostKey = "not a key" }, sshtarget.ErrBadKey, "host_key"},
		{"bad private key", func(c *sshtarget.Config) { c.PrivateKey = "-----BEGIN nonsense" }, sshtarget.ErrBadKey, "private_key"},
		{"nothing listening", func(c *sshtarget.Config) { c.Port = closed }, nil, "connection refused"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := config(h)
			c.modify(&cfg)
			_, err := sshtarget.Dial(ctx, cfg)
			if err == nil {
				t.Fatal("Dial succeeded")
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("err = %v, want %v", err, c.is)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want it to mention %q", err, c.want)
			}
		})
	}
}

func TestParseHostKeyAcceptsKnownHostsLines(t *testing.T) {
	_, pub := sshd.NewKey(t, "c")
	for _, s := range []string{pub, "  " + pub + "\n", "[127.0.0.2]:2222 " + pub} {
		if _, err := sshtarget.ParseHostKey(s); err != nil {
			t.Errorf("ParseHostKey(%q): %v", s, err)
		}
	}
}

func freeClosedPort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatal(err)
	}
	_, p, _ := net.SplitHostPort(l.Addr().String())
	l.Close()
	n, _ := strconv.Atoi(p)
	return n
}
