package sshd

import (
	"io"
	"net"
	"strings"
	"testing"
)

func TestHostsAcceptTheClientKeyAndForward(t *testing.T) {
	hosts := Start(t, 3)
	seen := map[string]bool{}
	for _, h := range hosts {
		if seen[h.Address] {
			t.Errorf("address %s used twice", h.Address)
		}
		seen[h.Address] = true
		c := h.Client(t)
		s, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		out, err := s.Output("echo $SSH_CONNECTION")
		s.Close()
		if err != nil {
			t.Fatalf("%s: %v\n%s", h.Addr(), err, h.Logs())
		}
		if !strings.Contains(string(out), h.Address) {
			t.Errorf("%s: SSH_CONNECTION = %q", h.Addr(), out)
		}

		// A direct-tcpip channel reaches a listener on the host's loopback.
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			conn, err := l.Accept()
			if err == nil {
				conn.Write([]byte("hello"))
				conn.Close()
			}
		}()
		conn, err := c.Dial("tcp", l.Addr().String())
		if err != nil {
			t.Fatalf("%s: forward: %v", h.Addr(), err)
		}
		b, _ := io.ReadAll(conn)
		conn.Close()
		l.Close()
		if string(b) != "hello" {
			t.Errorf("%s: forwarded read %q", h.Addr(), b)
		}
	}
}
