package partition

import (
	"fmt"
	"net/netip"
	"strings"
	"testing"
)

// Endpoint is traffic a cut drops: everything to and from Addr, or, when
// Port is not 0, only TCP to and from that port of Addr.
type Endpoint struct {
	Addr netip.Addr
	Port uint16
}

func (e Endpoint) String() string {
	if e.Port == 0 {
		return e.Addr.String()
	}
	return netip.AddrPortFrom(e.Addr, e.Port).String()
}

// Cut is a set of nftables drop rules in one node's namespace: the
// packets are dropped, not refused, so connections hang as they do when
// a real network fails, established ones included.
type Cut struct {
	node   *Node
	table  string
	eps    []Endpoint
	healed bool
}

// Cut drops every packet the node sends to or receives from eps until
// Heal. The namespace's removal removes the rules too.
func (nd *Node) Cut(t testing.TB, eps ...Endpoint) *Cut {
	t.Helper()
	nd.cuts++
	c := &Cut{node: nd, table: fmt.Sprintf("dwkcut%d", nd.cuts), eps: eps}
	var out, in strings.Builder
	for _, e := range eps {
		if e.Port == 0 {
			fmt.Fprintf(&out, "\t\tip daddr %s drop\n", e.Addr)
			fmt.Fprintf(&in, "\t\tip saddr %s drop\n", e.Addr)
			continue
		}
		fmt.Fprintf(&out, "\t\tip daddr %s tcp dport %d drop\n", e.Addr, e.Port)
		fmt.Fprintf(&in, "\t\tip saddr %s tcp sport %d drop\n", e.Addr, e.Port)
	}
	rules := fmt.Sprintf(`table inet %s {
	chain output {
		type filter hook output priority 0; policy accept;
%s	}
	chain input {
		type filter hook input priority 0; policy accept;
%s	}
}
`, c.table, out.String(), in.String())
	if err := run(strings.NewReader(rules), "ip", "netns", "exec", nd.Name, "nft", "-f", "-"); err != nil {
		t.Fatalf("cut %s off from %v: %v", nd.Name, eps, err)
	}
	return c
}

// Heal removes the cut's rules. Healing twice is a no-op.
func (c *Cut) Heal(t testing.TB) {
	t.Helper()
	if c.healed {
		return
	}
	if err := ip("netns", "exec", c.node.Name, "nft", "delete", "table", "inet", c.table); err != nil {
		t.Fatalf("heal the cut of %s from %v: %v", c.node.Name, c.eps, err)
	}
	c.healed = true
}
