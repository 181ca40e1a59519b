package partition

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"math/big"
	"net/netip"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/test/needtool"
)

// Net is a private network for one test: a bridge in the root network
// namespace and the namespaces of its nodes, all on one /24.
type Net struct {
	// ID is the random run id every name of this network carries.
	ID string
	// Bridge is the bridge device in the root namespace.
	Bridge string
	// Host is the bridge's address: the root namespace, and so every
	// process of the test that is not in a node, as the nodes reach it.
	Host netip.Addr

	t      testing.TB
	prefix netip.Prefix
	nodes  []*Node
}

// Node is one network namespace joined to a Net.
type Node struct {
	// Name is the namespace's name (ip netns).
	Name string
	// Addr is its address on the bridge.
	Addr netip.Addr

	net  *Net
	veth string // the root side of its veth pair
	cuts int
}

// New builds a network with no nodes and removes it when t ends. Where
// network namespaces are not permitted, it skips t saying why (fails it
// under CI).
func New(t testing.TB) *Net {
	t.Helper()
	needtool.LookPath(t, "ip", "apt-get install -y iproute2")
	needtool.LookPath(t, "nft", "apt-get install -y nftables")
	n := &Net{ID: randHex(6), t: t}
	n.Bridge = "dwkp" + n.ID
	if err := ip("link", "add", n.Bridge, "type", "bridge"); err != nil {
		unavailable(t, err)
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := ip("link", "del", n.Bridge); err != nil {
			t.Errorf("remove bridge %s: %v", n.Bridge, err)
		}
	})
	// A bridge needs CAP_NET_ADMIN, a namespace CAP_SYS_ADMIN too: both
	// are checked before anything depends on them.
	probe := "dwkp-" + n.ID + "-probe"
	if err := ip("netns", "add", probe); err != nil {
		unavailable(t, err)
		t.Fatal(err)
	}
	if err := ip("netns", "del", probe); err != nil {
		t.Fatal(err)
	}
	n.prefix = freePrefix(t)
	n.Host = n.prefix.Addr().Next()
	n.must(ip("addr", "add", netip.PrefixFrom(n.Host, 24).String(), "dev", n.Bridge))
	n.must(ip("link", "set", n.Bridge, "up"))
	return n
}

// Node adds a namespace named after name, with the next address of the
// network, and removes it when the test ends (after the processes the
// test started later, which the test's cleanup kills first).
func (n *Net) Node(name string) *Node {
	n.t.Helper()
	i := len(n.nodes)
	addr := n.Host
	for range 9 + i {
		addr = addr.Next() // nodes from .10 up
	}
	nd := &Node{Name: "dwkp-" + n.ID + "-" + name, Addr: addr, net: n, veth: fmt.Sprintf("dwkp%sh%d", n.ID, i)}
	peer := fmt.Sprintf("dwkp%sn%d", n.ID, i)
	n.must(ip("netns", "add", nd.Name))
	n.t.Cleanup(func() {
		// The root side of the pair goes with the namespace; deleting it
		// first also covers a namespace a stray process keeps alive.
		ip("link", "del", nd.veth)
		if err := ip("netns", "del", nd.Name); err != nil {
			n.t.Errorf("remove namespace %s: %v", nd.Name, err)
		}
	})
	n.must(ip("link", "add", nd.veth, "type", "veth", "peer", "name", peer, "netns", nd.Name))
	n.must(ip("link", "set", nd.veth, "master", n.Bridge, "up"))
	n.must(ip("-n", nd.Name, "link", "set", "lo", "up"))
	n.must(ip("-n", nd.Name, "addr", "add", netip.PrefixFrom(addr, 24).String(), "dev", peer))
	n.must(ip("-n", nd.Name, "link", "set", peer, "up"))
	n.nodes = append(n.nodes, nd)
	return nd
}

// Prefix is the command that runs a program inside the node: append the
// program and its arguments.
func (nd *Node) Prefix() []string { return []string{"ip", "netns", "exec", nd.Name} }

// Reach reports whether a TCP connection from inside the node to addr
// opens within timeout: how a test checks that a cut cuts, and that it
// cuts nothing else.
func (nd *Node) Reach(addr netip.AddrPort, timeout time.Duration) error {
	probe := fmt.Sprintf("exec 3<>/dev/tcp/%s/%d", addr.Addr(), addr.Port())
	secs := fmt.Sprintf("%.3f", timeout.Seconds())
	return run(nil, "ip", "netns", "exec", nd.Name, "timeout", secs, "bash", "-c", probe)
}

func (n *Net) must(err error) {
	n.t.Helper()
	if err != nil {
		n.t.Fatal(err)
	}
}

// unavailable ends t when err says that this process may not make
// network devices or namespaces.
func unavailable(t testing.TB, err error) {
	t.Helper()
	if msg := err.Error(); !strings.Contains(msg, "not permitted") && !strings.Contains(msg, "Permission denied") {
		return
	}
	const how = "run the tests as root (they need CAP_NET_ADMIN and CAP_SYS_ADMIN to create network namespaces)"
	if needtool.CI() {
		t.Fatalf("network namespaces are not permitted (%v), and under CI a partition test must not pass by skipping; %s", err, how)
	}
	t.Skipf("network namespaces are not permitted (%v); %s", err, how)
}

// freePrefix picks a random /24 in 10.64.0.0/10 that no route of the root
// namespace overlaps.
func freePrefix(t testing.TB) netip.Prefix {
	t.Helper()
	out, err := exec.Command("ip", "-4", "route", "show", "table", "all").Output()
	if err != nil {
		t.Fatalf("ip route: %v", err)
	}
	// Every prefix or address a route names counts as used: more than
	// needed (gateways, sources), never less.
	var used []netip.Prefix
	for _, f := range strings.Fields(string(out)) {
		if p, err := netip.ParsePrefix(f); err == nil {
			used = append(used, p)
		} else if a, err := netip.ParseAddr(f); err == nil {
			used = append(used, netip.PrefixFrom(a, 32))
		}
	}
	for range 100 {
		b := randInt(1 << 14) // 10.64.0.0/10 holds 2^14 /24s
		p := netip.PrefixFrom(netip.AddrFrom4([4]byte{10, byte(64 + (b >> 8)), byte(b), 0}), 24)
		free := true
		for _, u := range used {
			free = free && !u.Overlaps(p)
		}
		if free {
			return p
		}
	}
	t.Fatal("no free /24 in 10.64.0.0/10")
	return netip.Prefix{}
}

// ip runs ip(8) with args.
func ip(args ...string) error { return run(nil, "ip", args...) }

// run runs a command with stdin and returns its output in the error.
func run(stdin io.Reader, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Stdin = stdin
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	return nil
}

func randHex(n int) string {
	b := make([]byte, (n+1)/2)
	rand.Read(b)
	return hex.EncodeToString(b)[:n]
}

func randInt(n int64) int {
	v, _ := rand.Int(rand.Reader, big.NewInt(n))
	return int(v.Int64())
}
