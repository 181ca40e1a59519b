package provider

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
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
	"github.com/dwk/fleet/test/freeport"
	"github.com/dwk/fleet/test/procs"
	"github.com/dwk/fleet/test/sshd"
)

// TestAccFleetSSH deploys three replicas over SSH, rolls a new binary one
// host at a time, repairs a replica killed behind Terraform's back, rolls
// a config change two at a time, and destroys everything.
func TestAccFleetSSH(t *testing.T) {
	testAccPreCheck(t)
	hosts := sshHosts(t, sshd.Start(t, 3))
	v1, v2 := binaries(t)
	artifact := filepath.Join(t.TempDir(), "dwk")
	copyFile(t, v1, artifact)
	progress := filepath.Join(t.TempDir(), "progress.log")
	t.Setenv(EnvProgress, progress)

	// The admin token is read back from the hosts' dwk.json: it is kept
	// nowhere else.
	status := fmt.Sprintf(`
data "dwk_fleet_status" "s" {
  hosts = [
    { address = %q, port = %d, host_key = %q, admin = %q, install_dir = %q },
    { address = %q, port = %d, host_key = %q, admin = %q, install_dir = %q },
  ]
  depends_on = [dwk_fleet.f]
}
`, hosts[0].ssh.Address, hosts[0].ssh.Port, hosts[0].ssh.HostKey, hosts[0].admin, hosts[0].installDir,
		hosts[1].ssh.Address, hosts[1].ssh.Port, hosts[1].ssh.HostKey, hosts[1].admin, hosts[1].installDir)
	cfg := func(extra string) string { return fleetConfig("acc", artifact, hosts, extra) + status }
	replica := func(i int, attr string) tfjsonpath.Path {
		return tfjsonpath.New("replicas").AtSliceIndex(i).AtMapKey(attr)
	}
	var rollStart time.Time

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		CheckDestroy:             checkGone(hosts),
		Steps: []resource.TestStep{
			{
				Config: cfg(""),
				Check: resource.ComposeTestCheckFunc(
					checkReady(hosts),
					resource.TestCheckResourceAttr("data.dwk_fleet_status.s", "ready", "2"),
					resource.TestCheckResourceAttr("data.dwk_fleet_status.s", "members.1.member", hosts[1].ssh.Address),
				),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("dwk_fleet.f", replica(0, "state"), knownvalue.StringExact("running")),
					statecheck.ExpectKnownValue("dwk_fleet.f", replica(1, "service"), knownvalue.StringExact("process")),
					statecheck.ExpectKnownValue("dwk_fleet.f", replica(2, "member"), knownvalue.StringExact(hosts[2].ssh.Address)),
					statecheck.ExpectKnownValue("dwk_fleet.f", tfjsonpath.New("urls").AtSliceIndex(0), knownvalue.StringExact("http://"+hosts[0].public)),
					statecheck.ExpectKnownValue("dwk_fleet.f", tfjsonpath.New("secret"), knownvalue.Null()),
				},
			},
			{
				// A new binary at the same path rolls the fleet, one host at a time.
				PreConfig: func() {
					copyFile(t, v2, artifact)
					rollStart = time.Now()
				},
				Config: cfg(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("dwk_fleet.f", plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue("dwk_fleet.f", replica(0, "version")),
				}},
				Check: resource.ComposeTestCheckFunc(
					checkReady(hosts),
					resource.TestCheckResourceAttr("dwk_fleet.f", "replicas.0.version", "acc-v2"),
					resource.TestCheckResourceAttr("dwk_fleet.f", "replicas.2.version", "acc-v2"),
					resource.TestCheckResourceAttr("data.dwk_fleet_status.s", "members.0.version", "acc-v2"),
					// Each host's steps were shown while the rollout ran.
					func(*terraform.State) error {
						b, err := os.ReadFile(progress)
						if err != nil {
							return err
						}
						for _, h := range hosts {
							for _, step := range []string{"staged", "draining replica", "replica ready", "healthy"} {
								if !strings.Contains(string(b), h.ssh.User+"@"+h.ssh.Addr()+": "+step) {
									return fmt.Errorf("progress shows no %q for %s:\n%s", step, h.ssh.Addr(), b)
								}
							}
						}
						return nil
					},
					func(*terraform.State) error {
						ws, err := rolloutWindows(hosts, rollStart)
						if err != nil {
							return err
						}
						if len(ws) != 3 {
							return fmt.Errorf("%d hosts rolled, want 3: %+v", len(ws), ws)
						}
						for i, w := range ws {
							if w.host != i {
								return fmt.Errorf("rollout order %+v, want hosts in order", ws)
							}
							if i > 0 && !ws[i-1].until.Before(w.from) {
								return fmt.Errorf("host %d drained at %v before host %d was healthy at %v", i, w.from, i-1, ws[i-1].until)
							}
							if w.until.Sub(w.from) < time.Second {
								return fmt.Errorf("host %d was out of rotation for %v, less than min_healthy_time", i, w.until.Sub(w.from))
							}
						}
						return nil
					},
				),
			},
			{
				// A replica killed behind Terraform's back shows in the plan,
				// and the apply restarts it.
				PreConfig: func() { killReplica(t, hosts[1]) },
				Config:    cfg(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("dwk_fleet.f", plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue("dwk_fleet.f", replica(1, "state"), knownvalue.StringExact("running")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("dwk_fleet.f", replica(1, "state"), knownvalue.StringExact("running")),
				},
				Check: checkReady(hosts),
			},
			{
				// A config change rolls two hosts at a time.
				PreConfig: func() { rollStart = time.Now() },
				Config:    cfg("  log_level = \"debug\"\n  max_parallel = 2\n"),
				Check: resource.ComposeTestCheckFunc(
					checkReady(hosts),
					func(*terraform.State) error {
						ws, err := rolloutWindows(hosts, rollStart)
						if err != nil {
							return err
						}
						if len(ws) != 3 {
							return fmt.Errorf("%d hosts rolled, want 3", len(ws))
						}
						if n := maxOverlap(ws); n != 2 {
							return fmt.Errorf("at most %d replicas were out of rotation at once, want 2 (max_parallel): %+v", n, ws)
						}
						return nil
					},
				),
			},
		},
	})
}

// TestAccFleetErrors checks that failures name the host and the cause.
func TestAccFleetErrors(t *testing.T) {
	testAccPreCheck(t)
	sh := sshd.Start(t, 2)
	hosts := sshHosts(t, sh)
	artifact := filepath.Join(t.TempDir(), "dwk")
	copyFile(t, procs.DeployBinary(t), artifact)
	one := func(h testHost) []testHost { return []testHost{h} }

	wrongKey := hosts[0]
	wrongSSH := *wrongKey.ssh
	wrongSSH.HostKey = hosts[1].ssh.HostKey
	wrongKey.ssh = &wrongSSH

	closed := hosts[0]
	closedSSH := *closed.ssh
	closedSSH.Port = freeport.Port(t, closedSSH.Address)
	closed.ssh = &closedSSH

	busy, err := net.Listen("tcp", hosts[1].public)
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()

	name := func(h testHost) string { return h.ssh.User + "@" + h.ssh.Addr() }

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		CheckDestroy:             checkGone(hosts),
		Steps: []resource.TestStep{
			{
				Config:      fleetConfig("acc", artifact, one(wrongKey), ""),
				ExpectError: errRE("host "+name(wrongKey)+" failed at connect", "SSH host key verification failed", "presented ssh-ed25519 SHA256:"),
			},
			{
				Config:      fleetConfig("acc", artifact, one(closed), ""),
				ExpectError: errRE("host "+name(closed)+" failed at connect", "connection refused"),
			},
			{
				Config:      strings.Replace(fleetConfig("acc", artifact, one(hosts[0]), ""), "host_key", "# host_key", 1),
				ExpectError: errRE("Missing SSH host key", "ssh-keyscan"),
				PlanOnly:    true,
			},
			{
				Config:      fleetConfig("acc", artifact, one(hosts[0]), `  drain_timeout = "soon"`),
				ExpectError: errRE(`"soon" is not a duration`),
				PlanOnly:    true,
			},
			{
				Config:      fleetConfig("acc", artifact, one(hosts[0]), `  storage_mode = "central"`),
				ExpectError: errRE("Invalid fleet configuration", "storage.libsql"),
				PlanOnly:    true,
			},
			{
				// The replica cannot bind its public port: the diagnostic
				// names the host, the last /readyz answer and the replica's log.
				Config: fleetConfig("acc", artifact, one(hosts[1]), `  ready_timeout = "3s"`),
				ExpectError: errRE("host "+name(hosts[1])+" failed at wait for /readyz", "did not answer 200 within 3s; last answer:",
					"Last lines the replica logged", "address already in use"),
			},
		},
	})
}

// errRE matches parts in order, anywhere in an error, however Terraform
// wraps its lines.
func errRE(parts ...string) *regexp.Regexp {
	for i, p := range parts {
		words := strings.Fields(p)
		for j, w := range words {
			words[j] = regexp.QuoteMeta(w)
		}
		parts[i] = strings.Join(words, `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(parts, ".*"))
}

// TestAccFleetLocal deploys two replicas on this machine (address "local"),
// with deletion_protection refusing to remove a host or destroy the fleet
// until it is turned off.
func TestAccFleetLocal(t *testing.T) {
	testAccPreCheck(t)
	hosts := localHosts(t, 2)
	artifact := filepath.Join(t.TempDir(), "dwk")
	copyFile(t, procs.DeployBinary(t), artifact)
	protected := "  service = \"process\"\n  deletion_protection = true"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		CheckDestroy:             checkGone(hosts),
		Steps: []resource.TestStep{
			{
				Config: fleetConfig("acc-local", artifact, hosts, protected),
				Check: resource.ComposeTestCheckFunc(
					checkReady(hosts),
					resource.TestCheckResourceAttr("dwk_fleet.f", "replicas.0.member", "replica-1"),
					resource.TestCheckResourceAttr("dwk_fleet.f", "replicas.1.state", deploy.StateRunning),
				),
			},
			{
				// Protected local-mode data: neither removing a host nor
				// destroying the fleet goes through, and both say why.
				Config:      fleetConfig("acc-local", artifact, hosts[:1], protected),
				ExpectError: errRE("dwk_fleet acc-local has deletion_protection = true", "Removing local:"+hosts[1].installDir),
			},
			{
				Config:      fleetConfig("acc-local", artifact, hosts, protected),
				Destroy:     true,
				ExpectError: errRE("dwk_fleet acc-local has deletion_protection = true", "set deletion_protection = false"),
			},
			{
				Config: fleetConfig("acc-local", artifact, hosts, `  service = "process"`),
				Check:  checkReady(hosts),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("dwk_fleet.f", tfjsonpath.New("deletion_protection"), knownvalue.Bool(false)),
				},
			},
			{
				// Removing a host uninstalls it; the other keeps running untouched.
				Config: fleetConfig("acc-local", artifact, hosts[:1], `  service = "process"`),
				Check: resource.ComposeTestCheckFunc(
					checkReady(hosts[:1]),
					checkGone(hosts[1:]),
					resource.TestCheckResourceAttr("dwk_fleet.f", "replicas.#", "1"),
				),
			},
		},
	})
}
