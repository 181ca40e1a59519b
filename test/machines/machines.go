package machines

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dwk/fleet/test/needtool"
	"github.com/dwk/fleet/test/sshd"
)

// Set is the machines one Boot started, on a bridge of their own.
type Set struct {
	// Bridge is the name of the host's bridge interface the machines are
	// attached to.
	Bridge string
	// HostAddress is the host's address on the bridge, e.g. "10.231.7.1":
	// machines reach services the test listens on there. The machines know
	// it as "host" too.
	HostAddress string
	// PrivateKey is the client key (OpenSSH PEM) authorized for root on
	// every machine.
	PrivateKey string
	// Machines are m1, m2, … at .11, .12, … of the bridge's /24. Each knows
	// the others by name.
	Machines []*Machine
}

// Boot starts n machines named m1 … mn on a bridge of their own and waits
// until all are ready: SSH logins work and systemd has finished booting
// (the system is running or degraded). When t ends it powers them off and
// removes the bridge and the machines' directories.
//
// Boot skips t, or fails it under CI, when a tool is missing, and skips it
// when not run as root. The first Boot on a host builds the root file
// system cache (see the package documentation).
func Boot(t testing.TB, n int) *Set {
	t.Helper()
	if n < 1 || n > 200 {
		t.Fatalf("machines: Boot(%d): want 1 to 200 machines", n)
	}
	for _, tool := range []string{"systemd-nspawn", "debootstrap", "ip"} {
		if needtool.LookPath(t, tool, InstallHint) == "" {
			return nil
		}
	}
	if os.Geteuid() != 0 {
		t.Skip("machines tests boot containers with systemd-nspawn and create bridges, which needs root; run them as root")
	}
	clientPriv, clientPub := sshd.NewKey(t, "dwk-test-client")
	base, err := os.MkdirTemp("/var/tmp", "dwk-machines-")
	if err != nil {
		t.Fatalf("machines: %v", err)
	}
	// Registered first, so it runs last: after the machines are off.
	t.Cleanup(func() {
		if err := os.RemoveAll(base); err != nil {
			t.Errorf("machines: %v", err)
		}
	})
	b := newBridge(t)
	s := &Set{Bridge: b.name, HostAddress: b.host(), PrivateKey: clientPriv}
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("m%d", i+1)
	}
	hosts := hostsFile(b, names)
	hostKeys := make([][2]string, n) // private, public
	for i, name := range names {
		hostKeys[i][0], hostKeys[i][1] = sshd.NewKey(t, "root@"+name)
	}

	image, unlock := lockedImage(t)
	for i, name := range names {
		pub := strings.Fields(hostKeys[i][1])
		m := &Machine{
			Name: name, Address: b.address(i), Port: 22, User: "root", HostKey: pub[0] + " " + pub[1],
			Dir:  filepath.Join(base, name),
			unit: strings.TrimPrefix(b.name, "dwkm") + "-" + name, bridge: b.name,
			privateKey: clientPriv, logPath: filepath.Join(base, name+".console.log"),
		}
		if err := copyTree(image, m.Dir); err != nil {
			unlock()
			t.Fatalf("machines: %v", err)
		}
		if err := configure(m, hostKeys[i][0], hosts, b.host(), clientPub); err != nil {
			unlock()
			t.Fatalf("machines: configure %s: %v", name, err)
		}
		s.Machines = append(s.Machines, m)
	}
	unlock()

	for _, m := range s.Machines {
		t.Cleanup(func() {
			if err := m.powerOff(); err != nil {
				t.Errorf("machines: %v", err)
			}
		})
		if err := m.launch(); err != nil {
			t.Fatalf("machines: %v", err)
		}
	}
	states := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i, m := range s.Machines {
		wg.Go(func() { states[i], errs[i] = m.waitReady() })
	}
	wg.Wait()
	failed := false
	for i, err := range errs {
		if err != nil {
			t.Errorf("machines: %v", err)
			failed = true
			continue
		}
		s.Machines[i].logState(t, states[i])
	}
	if failed {
		t.FailNow()
	}
	return s
}

// Run runs cmd on every machine of s in turn and returns the first error
// (which names the machine and holds the output).
func (s *Set) Run(ctx context.Context, cmd string) error {
	for _, m := range s.Machines {
		if _, err := m.Run(ctx, cmd); err != nil {
			return err
		}
	}
	return nil
}
