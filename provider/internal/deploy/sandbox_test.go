package deploy_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/provider/internal/deploy"
)

func TestServiceUser(t *testing.T) {
	for _, c := range []struct{ unit, want string }{
		{"dwk-prod.service", "dwk-prod"},
		{"dwk-Prod-10.0.0.5.service", "dwk-prod-10-0-0-5"},
		{"7x.service", "dwk-7x"},
		{"dwk-" + strings.Repeat("a", 40) + ".service", "dwk-" + strings.Repeat("a", 28)},
	} {
		if got := deploy.ServiceUser(c.unit); got != c.want {
			t.Errorf("ServiceUser(%q) = %q, want %q", c.unit, got, c.want)
		}
	}
}

func TestPrivileged(t *testing.T) {
	for _, c := range []struct {
		addrs []string
		want  bool
	}{
		{[]string{"0.0.0.0:8787", "127.0.0.1:8789"}, false},
		{[]string{"0.0.0.0:443", "127.0.0.1:8789"}, true},
		{[]string{":80"}, true},
		{[]string{"[::]:1024"}, false},
		{[]string{"not an address"}, false},
	} {
		if got := deploy.Privileged(c.addrs...); got != c.want {
			t.Errorf("Privileged(%v) = %v, want %v", c.addrs, got, c.want)
		}
	}
}

// TestUnitSandbox: the unit runs as its own user, with no capability
// unless it binds a low port, and then only CAP_NET_BIND_SERVICE.
func TestUnitSandbox(t *testing.T) {
	h := &deploy.Host{InstallDir: "/opt/dwk/prod", Unit: "dwk-prod.service", DrainTimeout: 30 * time.Second}
	u := deploy.UnitFile(h)
	for _, want := range []string{
		"User=dwk-prod\n", "Group=dwk-prod\n", "ReadWritePaths=/opt/dwk/prod/data\n", "WorkingDirectory=/opt/dwk/prod/data\n",
		"CapabilityBoundingSet=\n", "AmbientCapabilities=\n", "NoNewPrivileges=yes\n", "ProtectSystem=strict\n",
		"ProtectHome=yes\n", "PrivateTmp=yes\n", "PrivateDevices=yes\n", "PrivateUsers=yes\n", "ProtectKernelTunables=yes\n",
		"ProtectKernelModules=yes\n", "ProtectKernelLogs=yes\n", "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6\n",
		"SystemCallFilter=@system-service\n", "LimitNOFILE=1048576\n",
	} {
		if !strings.Contains(u, want) {
			t.Errorf("unit lacks %q:\n%s", want, u)
		}
	}
	h.Privileged = true
	u = deploy.UnitFile(h)
	for _, want := range []string{"CapabilityBoundingSet=CAP_NET_BIND_SERVICE\n", "AmbientCapabilities=CAP_NET_BIND_SERVICE\n"} {
		if !strings.Contains(u, want) {
			t.Errorf("privileged unit lacks %q", want)
		}
	}
	if strings.Contains(u, "PrivateUsers=") {
		t.Error("a privileged unit has a user namespace, which keeps its capability from applying to the host's ports")
	}
	h.Program, h.Privileged = deploy.LibSQLServer, false
	if u := deploy.UnitFile(h); !strings.Contains(u, "LimitNOFILE=65536\n") {
		t.Errorf("libSQL unit lacks LimitNOFILE=65536:\n%s", u)
	}
}
