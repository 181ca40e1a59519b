package provider

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/dwk/fleet/provider/internal/deploy"
	"github.com/dwk/fleet/test/machines"
	"github.com/dwk/fleet/test/sshd"
)

// maxExposure is the highest `systemd-analyze security` rating a dwk unit
// may have.
const maxExposure = 2.5

// machineHosts are test hosts on booted systemd machines, each installing
// into /opt/dwk/<name> and serving on port 443 of its bridge address: a
// port below 1024, which the unit binds without root.
func machineHosts(set *machines.Set, name string) []testHost {
	out := make([]testHost, len(set.Machines))
	for i, m := range set.Machines {
		dir := "/opt/dwk/" + name
		out[i] = testHost{
			ssh:        &sshd.Host{Address: m.Address, Port: m.Port, User: m.User, PrivateKey: set.PrivateKey, HostKey: m.HostKey, InstallDir: dir},
			installDir: dir,
			public:     net.JoinHostPort(m.Address, "443"),
			admin:      "127.0.0.1:8789",
		}
	}
	return out
}

// onEach runs cmd on every machine and fails with the first error.
func onEach(set *machines.Set, cmd string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return set.Run(ctx, cmd)
}

// checkUnits checks each machine's unit: active, running as its own
// user, rated at most maxExposure, logging to the journal with fields.
func checkUnits(t *testing.T, set *machines.Set, unit string) func(*terraform.State) error {
	return func(*terraform.State) error {
		user := deploy.ServiceUser(unit)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		for _, m := range set.Machines {
			out, err := m.Run(ctx, fmt.Sprintf(`systemctl is-active %[1]s && ps -o user= -p "$(systemctl show -p MainPID --value %[1]s)"`, unit))
			if f := strings.Fields(string(out)); err != nil || len(f) == 0 || f[len(f)-1] != user {
				return fmt.Errorf("%s: unit %s: %v: %s (want active, running as %s)", m.Name, unit, err, out, user)
			}
			e, err := m.Exposure(ctx, unit)
			if err != nil {
				return fmt.Errorf("%s: %w", m.Name, err)
			}
			if e > maxExposure {
				return fmt.Errorf("%s: systemd-analyze security rates %s %.1f, want at most %.1f", m.Name, unit, e, maxExposure)
			}
			t.Logf("%s: %s: exposure %.1f", m.Name, unit, e)
			out, err = m.Run(ctx, fmt.Sprintf(`journalctl -u %s -o json --no-pager MEMBER=%s LEVEL=INFO | tail -n 1`, unit, m.Address))
			if err != nil || !strings.Contains(string(out), `"PRIORITY":"6"`) {
				return fmt.Errorf("%s: no INFO record with MEMBER=%s in the journal of %s: %v %s", m.Name, m.Address, unit, err, out)
			}
		}
		return nil
	}
}

// TestAccFleetSystemd deploys a fleet onto three booted systemd machines:
// the replicas run as sandboxed units of their own users; a new binary
// rolls them; a unit stopped by hand shows in the plan and is started
// again; a machine powered off and booted again serves within 20 s of its
// boot, its acknowledged writes kept, with nothing to apply; destroy
// leaves no unit, file or user.
func TestAccFleetSystemd(t *testing.T) {
	testAccPreCheck(t)
	t.Parallel()
	set := machines.Boot(t, 3)
	hosts := machineHosts(set, "acc")
	v1, v2 := binaries(t)
	artifact := filepath.Join(t.TempDir(), "dwk")
	copyFile(t, v1, artifact)
	const unit = "dwk-acc.service"
	cfg := fleetConfig("acc", artifact, hosts, "")
	replica := func(i int, attr string) tfjsonpath.Path {
		return tfjsonpath.New("replicas").AtSliceIndex(i).AtMapKey(attr)
	}
	rebooted := hosts[2]

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		CheckDestroy: func(*terraform.State) error {
			if err := onEach(set, `! pgrep -af '[/]opt/dwk/acc'`); err != nil {
				return fmt.Errorf("processes left running: %w", err)
			}
			return onEach(set, fmt.Sprintf(`test ! -e /etc/systemd/system/%s && test ! -e /opt/dwk/acc && ! id %s 2>/dev/null`, unit, deploy.ServiceUser(unit)))
		},
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check:  resource.ComposeTestCheckFunc(checkReady(hosts), checkUnits(t, set, unit)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("dwk_fleet.f", replica(0, "service"), knownvalue.StringExact("systemd")),
				},
			},
			{
				// A new binary rolls the units.
				PreConfig: func() { copyFile(t, v2, artifact) },
				Config:    cfg,
				Check: resource.ComposeTestCheckFunc(
					checkReady(hosts), checkUnits(t, set, unit),
					resource.TestCheckResourceAttr("dwk_fleet.f", "replicas.0.version", "acc-v2"),
					resource.TestCheckResourceAttr("dwk_fleet.f", "replicas.2.version", "acc-v2"),
				),
			},
			{
				// A unit stopped by hand is drift: the plan shows it, the
				// apply starts it.
				PreConfig: func() {
					if out, err := set.Machines[1].Run(context.Background(), "systemctl stop "+unit); err != nil {
						t.Fatalf("stop %s by hand: %v %s", unit, err, out)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("dwk_fleet.f", plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(checkReady(hosts), checkUnits(t, set, unit)),
			},
			{
				// Power a machine off under writes and boot it again: its
				// unit starts with the machine and serves within 20 s of
				// the boot, with every acknowledged increment.
				PreConfig: func() {
					load := startIncrements(rebooted, "kept")
					time.Sleep(time.Second)
					m := set.Machines[2]
					m.PowerOff(t)
					booted := time.Now()
					m.Start(t)
					deadline := booted.Add(20 * time.Second)
					for {
						if err := checkReady([]testHost{rebooted})(nil); err == nil {
							t.Logf("%s served %v after its boot began", m.Name, time.Since(booted).Round(time.Millisecond))
							break
						} else if time.Now().After(deadline) {
							t.Fatalf("%s does not serve 20 s after its boot: %v\n%s", m.Name, err, m.Log())
						}
						time.Sleep(200 * time.Millisecond)
					}
					time.Sleep(time.Second)
					acked, sent := load.stop()
					v, err := increment(rebooted, "kept")
					if err != nil {
						t.Fatal(err)
					}
					t.Logf("%d increments acknowledged, %d sent across the power cut; the counter is at %d before the last", acked, sent, v-1)
					if v-1 < acked || v-1 > sent {
						t.Fatalf("the counter is at %d, but %d increments were acknowledged and %d sent", v-1, acked, sent)
					}
				},
				Config:   cfg,
				PlanOnly: true,
			},
		},
	})
}

// TestAccLibSQLServerSystemd installs the libSQL server as a sandboxed
// unit on a booted systemd machine: it serves, is rated at most
// maxExposure, reads the data an earlier root-run install left after an
// upgrade, comes back with its data after a power cut, and destroy
// removes its unit, files and user.
func TestAccLibSQLServerSystemd(t *testing.T) {
	testAccPreCheck(t)
	t.Parallel()
	set := machines.Boot(t, 1)
	m := set.Machines[0]
	v1, v2 := binaries(t)
	artifact := filepath.Join(t.TempDir(), "dwk")
	copyFile(t, v1, artifact)
	listen := net.JoinHostPort(m.Address, "8080")
	admin := net.JoinHostPort(m.Address, "8081")
	certFile, keyFile := selfSigned(t, m.Address)
	const install = "/opt/dwk/db"
	const unit = "dwk-db.service"
	th := testHost{ssh: &sshd.Host{Address: m.Address, Port: m.Port, User: m.User, PrivateKey: set.PrivateKey, HostKey: m.HostKey}}
	cfg := providerSSH([]testHost{th}) + fmt.Sprintf(`
resource "dwk_libsql_server" "db" {
  name = "db"
  host = {
    address  = %q
    port     = %d
    user     = %q
    host_key = %q
  }
  artifact      = %q
  install_dir   = %q
  listen        = %q
  admin_listen  = %q
  tls_cert_file = %q
  tls_key_file  = %q
  force_destroy = true
}
`, m.Address, m.Port, m.User, m.HostKey, artifact, install, listen, admin, certFile, keyFile)
	const res = "dwk_libsql_server.db"
	var token string

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		CheckDestroy: func(*terraform.State) error {
			return onEach(set, fmt.Sprintf(`test ! -e /etc/systemd/system/%s && test ! -e %s && ! id %s 2>/dev/null`, unit, install, deploy.ServiceUser(unit)))
		},
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(res, "service_manager", "systemd"),
					func(s *terraform.State) error {
						token = s.RootModule().Resources[res].Primary.Attributes["auth_token"]
						if err := hranaOK(listen, token, "CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('kept')"); err != nil {
							return err
						}
						ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
						defer cancel()
						e, err := m.Exposure(ctx, unit)
						if err != nil {
							return err
						}
						if e > maxExposure {
							return fmt.Errorf("systemd-analyze security rates %s %.1f, want at most %.1f", unit, e, maxExposure)
						}
						t.Logf("%s: exposure %.1f", unit, e)
						return nil
					},
				),
			},
			{
				// An upgrade from an install whose program ran as root
				// (its data root's): the new binary's unit runs as its
				// user and reads the data.
				PreConfig: func() {
					if out, err := m.Run(context.Background(), "chown -R root:root "+install+"/data"); err != nil {
						t.Fatalf("make the data root's: %v %s", err, out)
					}
					copyFile(t, v2, artifact)
				},
				Config: cfg,
				Check: func(*terraform.State) error {
					if err := hranaHas(listen, token, "kept"); err != nil {
						return err
					}
					out, err := m.Run(context.Background(), "stat -c %U "+install+"/data/*")
					if err != nil || strings.Contains(string(out), "root") {
						return fmt.Errorf("data files after the upgrade: %v %s (want all %s's)", err, out, deploy.ServiceUser(unit))
					}
					return nil
				},
			},
			{
				// A power cut and a boot: the unit is back, with its data.
				PreConfig: func() {
					m.PowerOff(t)
					m.Start(t)
					deadline := time.Now().Add(30 * time.Second)
					for hranaHas(listen, token, "kept") != nil {
						if time.Now().After(deadline) {
							t.Fatalf("the libSQL server does not serve its data 30 s after the boot: %v\n%s", hranaHas(listen, token, "kept"), m.Log())
						}
						time.Sleep(200 * time.Millisecond)
					}
				},
				Config:   cfg,
				PlanOnly: true,
			},
		},
	})
}

// incrementLoad sends increments to one counter, one at a time, until
// stopped, counting those sent and those acknowledged.
type incrementLoad struct {
	done        chan struct{}
	finished    chan struct{}
	acked, sent int
}

func startIncrements(h testHost, name string) *incrementLoad {
	l := &incrementLoad{done: make(chan struct{}), finished: make(chan struct{})}
	go func() {
		defer close(l.finished)
		for {
			select {
			case <-l.done:
				return
			default:
			}
			l.sent++
			if _, err := increment(h, name); err == nil {
				l.acked++
			} else {
				time.Sleep(50 * time.Millisecond)
			}
		}
	}()
	return l
}

// stop ends the load and returns how many increments were acknowledged
// and sent.
func (l *incrementLoad) stop() (acked, sent int) {
	close(l.done)
	<-l.finished
	return l.acked, l.sent
}

// TestAccFleetProcessWithoutRoot deploys a replica as a supervised
// process over SSH as a user that is not root and has no sudo: nothing
// of the process path needs root.
func TestAccFleetProcessWithoutRoot(t *testing.T) {
	testAccPreCheck(t)
	t.Parallel()
	set := machines.Boot(t, 1)
	m := set.Machines[0]
	const user, dir = "deploy", "/home/deploy/dwk"
	if out, err := m.Run(context.Background(), `useradd -m -s /bin/sh deploy && install -d -o deploy -m 700 /home/deploy/.ssh && install -o deploy -m 600 /root/.ssh/authorized_keys /home/deploy/.ssh/`); err != nil {
		t.Fatalf("create the user %s: %v %s", user, err, out)
	}
	v1, _ := binaries(t)
	artifact := filepath.Join(t.TempDir(), "dwk")
	copyFile(t, v1, artifact)
	hosts := []testHost{{
		ssh:        &sshd.Host{Address: m.Address, Port: m.Port, User: user, PrivateKey: set.PrivateKey, HostKey: m.HostKey, InstallDir: dir},
		installDir: dir, public: net.JoinHostPort(m.Address, "8787"), admin: "127.0.0.1:8789",
	}}
	cfg := fleetConfig("acc", artifact, hosts, `  service = "process"`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		CheckDestroy: func(*terraform.State) error {
			if err := onEach(set, `! pgrep -af '[/]home/deploy/dwk'`); err != nil {
				return fmt.Errorf("processes left running: %w", err)
			}
			return onEach(set, "test ! -e "+dir)
		},
		Steps: []resource.TestStep{{
			Config: cfg,
			Check: resource.ComposeTestCheckFunc(checkReady(hosts), func(*terraform.State) error {
				out, err := m.Run(context.Background(), `ps -o user= -p "$(cat `+dir+`/dwk.pid)"`)
				if err != nil || strings.TrimSpace(string(out)) != user {
					return fmt.Errorf("the supervisor runs as %q (%v), want %s", strings.TrimSpace(string(out)), err, user)
				}
				return nil
			}),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("dwk_fleet.f", tfjsonpath.New("replicas").AtSliceIndex(0).AtMapKey("service"), knownvalue.StringExact("process")),
			},
		}},
	})
}
