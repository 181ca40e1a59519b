package partition

import (
	"fmt"
	"os/exec"
)

// Available returns nil when this process can build a [Net] — ip and nft
// are on PATH and it may create bridges and network namespaces — and
// otherwise says why not and how to fix it. It is for a test whose
// network faults are a part of it (the soak), which runs without them
// where they are not possible; a test that is about them calls [New],
// which skips or fails.
func Available() error {
	for _, tool := range []struct{ name, install string }{
		{"ip", "apt-get install -y iproute2"},
		{"nft", "apt-get install -y nftables"},
	} {
		if _, err := exec.LookPath(tool.name); err != nil {
			return fmt.Errorf("%s is not installed (%v); install it: %s", tool.name, err, tool.install)
		}
	}
	const how = "run as root (network namespaces need CAP_NET_ADMIN and CAP_SYS_ADMIN)"
	id := randHex(6)
	bridge := "dwkp" + id + "pr"
	if err := ip("link", "add", bridge, "type", "bridge"); err != nil {
		return fmt.Errorf("network devices are not permitted (%v); %s", err, how)
	}
	if err := ip("link", "del", bridge); err != nil {
		return fmt.Errorf("remove probe bridge %s: %w", bridge, err)
	}
	ns := "dwkp-" + id + "-probe"
	if err := ip("netns", "add", ns); err != nil {
		return fmt.Errorf("network namespaces are not permitted (%v); %s", err, how)
	}
	if err := ip("netns", "del", ns); err != nil {
		return fmt.Errorf("remove probe namespace %s: %w", ns, err)
	}
	return nil
}
