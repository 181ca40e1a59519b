package sshtarget

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/test/freeport"
	"github.com/dwk/fleet/test/sshd"
)

// TestLazyRedials: a connection that died between commands is replaced,
// and the next command runs on the new one.
func TestLazyRedials(t *testing.T) {
	h := sshd.Start(t, 1)[0]
	l := NewLazy(Config{Address: h.Address, Port: h.Port, User: h.User, PrivateKey: h.PrivateKey, HostKey: h.HostKey})
	defer l.Close()
	ctx := context.Background()
	if out, err := l.Run(ctx, "echo one", nil); err != nil || string(out) != "one\n" {
		t.Fatalf("Run = %q, %v", out, err)
	}
	first := l.t
	first.client.Close()
	select {
	case <-first.gone:
	case <-time.After(10 * time.Second):
		t.Fatal("closed connection not noticed")
	}
	if out, err := l.Run(ctx, "echo two", nil); err != nil || string(out) != "two\n" {
		t.Fatalf("Run after the connection died = %q, %v", out, err)
	}
	if l.t == first {
		t.Error("Run reused the dead connection")
	}
}

// TestLazyBackoff: a refused connection is retried with backoff, and the
// error says so; a wrong host key is not retried.
func TestLazyBackoff(t *testing.T) {
	h := sshd.Start(t, 1)[0]
	cfg := Config{Address: h.Address, Port: freeport.Port(t, h.Address), User: h.User, PrivateKey: h.PrivateKey, HostKey: h.HostKey}
	l := NewLazy(cfg)
	l.backoff = []time.Duration{10 * time.Millisecond, 10 * time.Millisecond}
	_, err := l.Run(context.Background(), "true", nil)
	if err == nil || !strings.Contains(err.Error(), "connection refused") || !strings.Contains(err.Error(), "after 3 attempts") {
		t.Errorf("refused: %v, want connection refused after 3 attempts", err)
	}

	other, _ := sshd.NewKey(t, "other")
	bad := Config{Address: h.Address, Port: h.Port, User: h.User, PrivateKey: other, HostKey: h.HostKey}
	l = NewLazy(bad)
	l.backoff = []time.Duration{time.Hour} // a retry would hang the test
	if _, err := l.Run(context.Background(), "true", nil); err == nil || !strings.Contains(err.Error(), ErrAuth.Error()) {
		t.Errorf("wrong client key: %v, want %v at once", err, ErrAuth)
	}
}
