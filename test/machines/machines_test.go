package machines

import (
	"context"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestMachines(t *testing.T) {
	start := time.Now()
	s := Boot(t, 2)
	t.Logf("booted %d machines on %s (host %s) in %v", len(s.Machines), s.Bridge, s.HostAddress, time.Since(start).Round(time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	m1, m2 := s.Machines[0], s.Machines[1]

	for _, m := range s.Machines {
		out, err := m.Run(ctx, "hostname")
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(string(out)); got != m.Name {
			t.Errorf("%s says its host name is %q", m.Name, got)
		}
	}
	if m1.HostKey == m2.HostKey {
		t.Errorf("m1 and m2 share the host key %s", m1.HostKey)
	}

	if _, err := m1.Run(ctx, "bash -c 'echo > /dev/tcp/"+m2.Address+"/22'"); err != nil {
		t.Errorf("m1 cannot reach m2's sshd over the bridge: %v", err)
	}
	if _, err := m1.Run(ctx, "bash -c 'echo > /dev/tcp/m2/22'"); err != nil {
		t.Errorf("m1 cannot reach m2 by name: %v", err)
	}

	// A service the test listens on at the host's address.
	l, err := net.Listen("tcp", net.JoinHostPort(s.HostAddress, "0"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		if c, err := l.Accept(); err == nil {
			c.Write([]byte("hello from the host\n"))
			c.Close()
		}
	}()
	port := l.Addr().(*net.TCPAddr).Port
	out, err := m2.Run(ctx, "bash -c 'exec 3<>/dev/tcp/host/"+strconv.Itoa(port)+"; cat <&3'")
	if err != nil || !strings.Contains(string(out), "hello from the host") {
		t.Errorf("m2 reading from the host: %q, %v", out, err)
	}

	if _, err := m1.Run(ctx, "echo kept > /root/survivor"); err != nil {
		t.Fatal(err)
	}
	off := time.Now()
	m1.PowerOff(t)
	if _, err := m1.Run(ctx, "true"); err == nil {
		t.Errorf("m1 runs commands after PowerOff")
	}
	m1.Start(t)
	t.Logf("power cycled m1 in %v", time.Since(off).Round(time.Millisecond))
	out, err = m1.Run(ctx, "cat /root/survivor")
	if err != nil || strings.TrimSpace(string(out)) != "kept" {
		t.Errorf("file written before PowerOff: %q, %v", out, err)
	}
	if out, err := m1.Run(ctx, "cat /proc/sys/kernel/random/boot_id; journalctl --list-boots --no-pager | wc -l"); err == nil {
		t.Logf("m1 after restart:\n%s", out)
	}

	level, err := m2.Exposure(ctx, "systemd-networkd.service")
	if err != nil {
		t.Fatal(err)
	}
	if level <= 0 || level > 10 {
		t.Errorf("exposure of systemd-networkd.service = %v, want in (0, 10]", level)
	}
	t.Logf("exposure of systemd-networkd.service on m2: %.1f", level)
}

func TestParseExposure(t *testing.T) {
	out := "  NAME  DESCRIPTION  EXPOSURE\n✗ PrivateNetwork=  Service has access to the host's network  0.5\n\n" +
		"→ Overall exposure level for systemd-networkd.service: 2.9 OK 🙂\n"
	got, err := parseExposure(out)
	if err != nil || got != 2.9 {
		t.Errorf("parseExposure = %v, %v; want 2.9", got, err)
	}
	if _, err := parseExposure("Unit foo.service not found.\n"); err == nil {
		t.Error("parseExposure of output without a level did not fail")
	}
}

func TestOverlaps(t *testing.T) {
	_, a, _ := net.ParseCIDR("10.231.7.1/24")
	_, wide, _ := net.ParseCIDR("10.0.0.0/8")
	_, other, _ := net.ParseCIDR("192.0.2.2/24")
	for _, tc := range []struct {
		used []*net.IPNet
		base string
		want bool
	}{
		{[]*net.IPNet{a}, "10.231.7.0", true},
		{[]*net.IPNet{a}, "10.231.8.0", false},
		{[]*net.IPNet{wide}, "10.231.8.0", true},
		{[]*net.IPNet{other}, "10.231.8.0", false},
	} {
		if got := overlaps(tc.used, net.ParseIP(tc.base)); got != tc.want {
			t.Errorf("overlaps(%v, %s) = %v, want %v", tc.used, tc.base, got, tc.want)
		}
	}
}
