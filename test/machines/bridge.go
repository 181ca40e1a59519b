package machines

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"
)

const (
	// netLock serializes choosing a subnet and bridge name and creating
	// the bridge across test processes, so each sees the others' bridges.
	netLock = "/run/lock/dwk-test-machines.lock"
	// Subnets are 10.x.y.0/24 with x in [firstX, lastX].
	firstX, lastX = 200, 250
)

// bridge is a Linux bridge on the host with a /24 of its own.
type bridge struct {
	name   string // interface name
	prefix string // first three octets, e.g. "10.231.7"
}

// host is the host's address on the bridge.
func (b *bridge) host() string { return b.prefix + ".1" }

// address is the address of the i-th machine (from 0): .11, .12, ….
func (b *bridge) address(i int) string { return fmt.Sprintf("%s.%d", b.prefix, 11+i) }

// newBridge creates a bridge with an unused name and subnet and deletes it
// when t ends.
func newBridge(t testing.TB) *bridge {
	t.Helper()
	lock, err := flock(netLock, time.Minute, nil)
	if err != nil {
		t.Fatalf("machines: %v", err)
	}
	defer lock.Close()
	b, err := pickBridge()
	if err != nil {
		t.Fatalf("machines: %v", err)
	}
	if err := b.create(); err != nil {
		b.remove()
		t.Fatalf("machines: %v", err)
	}
	t.Cleanup(func() {
		if err := b.remove(); err != nil {
			t.Errorf("machines: %v", err)
		}
	})
	return b
}

// pickBridge chooses a bridge name and a 10.x.y.0/24 that no interface
// on the host uses.
func pickBridge() (*bridge, error) {
	var used []*net.IPNet
	ifaces, err := net.Interfaces()
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, ifc := range ifaces {
		names[ifc.Name] = true
		addrs, err := ifc.Addrs()
		if err != nil {
			return nil, err
		}
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil {
				used = append(used, n)
			}
		}
	}
	b := &bridge{}
	for b.name == "" || names[b.name] {
		b.name = fmt.Sprintf("dwkm%06x", rand.IntN(1<<24))
	}
	for range 1000 {
		x := firstX + rand.IntN(lastX-firstX+1)
		y := rand.IntN(256)
		if !overlaps(used, net.IPv4(10, byte(x), byte(y), 0)) {
			b.prefix = fmt.Sprintf("10.%d.%d", x, y)
			return b, nil
		}
	}
	return nil, fmt.Errorf("no free 10.%d-%d.x.0/24 subnet on this host", firstX, lastX)
}

// overlaps reports whether the /24 starting at base overlaps any of used.
func overlaps(used []*net.IPNet, base net.IP) bool {
	subnet := &net.IPNet{IP: base.To4(), Mask: net.CIDRMask(24, 32)}
	for _, n := range used {
		if n.Contains(subnet.IP) || subnet.Contains(n.IP) {
			return true
		}
	}
	return false
}

// create adds the bridge, gives the host its address and brings it up.
func (b *bridge) create() error {
	for _, args := range [][]string{
		{"link", "add", b.name, "type", "bridge"},
		{"addr", "add", b.host() + "/24", "dev", b.name},
		{"link", "set", b.name, "up"},
	} {
		if err := ip(args...); err != nil {
			return err
		}
	}
	return nil
}

// remove deletes the bridge if it exists.
func (b *bridge) remove() error {
	if _, err := net.InterfaceByName(b.name); err != nil {
		return nil
	}
	return ip("link", "del", b.name)
}

// ip runs the ip command.
func ip(args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ip", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("ip %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}
