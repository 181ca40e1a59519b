// Package freeport picks TCP ports for test processes that must be told
// their address before they start (a replica's advertised internal address,
// a server's port in a config file). The ports come from below the kernel's
// ephemeral range, so an outgoing connection of another test cannot take a
// port between the check and the process binding it.
package freeport

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
)

// lowest is the bottom of the range ports are picked from.
const lowest = 20000

// Addr returns host:port for a port that is free on host right now and lies
// outside the ephemeral range.
func Addr(host string) (string, error) {
	top := ephemeralStart()
	var last error
	for range 200 {
		addr := net.JoinHostPort(host, strconv.Itoa(lowest+rand.IntN(top-lowest)))
		l, err := net.Listen("tcp", addr)
		if err != nil {
			last = err
			continue
		}
		l.Close()
		return addr, nil
	}
	return "", fmt.Errorf("no free port on %s below %d: %v", host, top, last)
}

// Must is Addr that fails t.
func Must(t testing.TB, host string) string {
	t.Helper()
	addr, err := Addr(host)
	if err != nil {
		t.Fatal(err)
	}
	return addr
}

// Port is Must's port number.
func Port(t testing.TB, host string) int {
	t.Helper()
	_, p, _ := net.SplitHostPort(Must(t, host))
	n, _ := strconv.Atoi(p)
	return n
}

// ephemeralStart is the first port of the kernel's ephemeral range
// (32768 when it cannot be read).
func ephemeralStart() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 32768
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 32768
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || n <= lowest+1000 {
		return 32768
	}
	return n
}
