package provider

import (
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/dwk/fleet/test/procs"
	"github.com/dwk/fleet/test/sshd"
)

// TestAccFleetUnreachable: with one of two hosts down, a rollout fails
// naming that host; with remove_unreachable it completes for the other
// and leaves the dead one out; removing the dead host from hosts then
// drops it without reaching it.
func TestAccFleetUnreachable(t *testing.T) {
	testAccPreCheck(t)
	sh := sshd.Start(t, 2)
	hosts := sshHosts(t, sh)
	artifact := filepath.Join(t.TempDir(), "dwk")
	copyFile(t, procs.Binary(t), artifact)
	dead := hosts[1].ssh.User + "@" + hosts[1].ssh.Addr()
	replica := func(i int, attr string) tfjsonpath.Path {
		return tfjsonpath.New("replicas").AtSliceIndex(i).AtMapKey(attr)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		CheckDestroy:             checkGone(hosts[:1]), // the dead host keeps what it had
		Steps: []resource.TestStep{
			{Config: fleetConfig("acc-dead", artifact, hosts, `  service = "process"`), Check: checkReady(hosts)},
			{
				// Host 2 goes down; a config change cannot reach it.
				PreConfig:   func() { sh[1].Stop() },
				Config:      fleetConfig("acc-dead", artifact, hosts, "  service = \"process\"\n  log_level = \"debug\""),
				ExpectError: errRE("host "+dead+" failed", "connection refused"),
			},
			{
				Config:             fleetConfig("acc-dead", artifact, hosts, "  service = \"process\"\n  log_level = \"debug\"\n  remove_unreachable = true"),
				Check:              checkReady(hosts[:1]),
				ExpectNonEmptyPlan: true, // the dead host is still wanted running
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("dwk_fleet.f", replica(0, "state"), knownvalue.StringExact("running")),
					statecheck.ExpectKnownValue("dwk_fleet.f", replica(1, "state"), knownvalue.StringExact("unreachable")),
				},
			},
			{
				// Gone from hosts: dropped without reaching it.
				Config: fleetConfig("acc-dead", artifact, hosts[:1], "  service = \"process\"\n  log_level = \"debug\"\n  remove_unreachable = true"),
				Check:  checkReady(hosts[:1]),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("dwk_fleet.f", tfjsonpath.New("replicas"), knownvalue.ListSizeExact(1)),
				},
			},
		},
	})
}
