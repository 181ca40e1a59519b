package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/dwk/fleet/test/procs"
	"github.com/dwk/fleet/test/sshd"
)

// TestAccFleetUnreachable: with the second of three hosts down, a rollout
// (one host per batch) still rolls the first and the third, and then
// fails naming the dead one; with remove_unreachable it completes with a
// warning and leaves the dead one out; removing the dead host from hosts
// then drops it without reaching it.
func TestAccFleetUnreachable(t *testing.T) {
	testAccPreCheck(t)
	t.Parallel()
	sh := sshd.Start(t, 3)
	hosts := sshHosts(t, sh)
	artifact := filepath.Join(t.TempDir(), "dwk")
	copyFile(t, procs.DeployBinary(t), artifact)
	dead := hosts[1].ssh.User + "@" + hosts[1].ssh.Addr()
	replica := func(i int, attr string) tfjsonpath.Path {
		return tfjsonpath.New("replicas").AtSliceIndex(i).AtMapKey(attr)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		CheckDestroy:             checkGone([]testHost{hosts[0], hosts[2]}), // the dead host keeps what it had
		Steps: []resource.TestStep{
			{Config: fleetConfig("acc-dead", artifact, hosts, `  service = "process"`), Check: checkReady(hosts)},
			{
				// Host 2 goes down; a config change cannot reach it.
				PreConfig:   func() { sh[1].Stop() },
				Config:      fleetConfig("acc-dead", artifact, hosts, "  service = \"process\"\n  log_level = \"debug\""),
				ExpectError: errRE("host "+dead+" failed", "connection refused"),
			},
			{
				// The live hosts, before and after the dead one, were rolled.
				PreConfig: func() {
					for _, i := range []int{0, 2} {
						b, err := os.ReadFile(filepath.Join(hosts[i].installDir, "dwk.json"))
						if err != nil || !strings.Contains(string(b), `"level": "debug"`) {
							t.Fatalf("host %d was not rolled past the dead host: %v\n%s", i, err, b)
						}
					}
				},
				Config:             fleetConfig("acc-dead", artifact, hosts, "  service = \"process\"\n  log_level = \"debug\"\n  remove_unreachable = true"),
				Check:              checkReady([]testHost{hosts[0], hosts[2]}),
				ExpectNonEmptyPlan: true, // the dead host is still wanted running
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("dwk_fleet.f", replica(0, "state"), knownvalue.StringExact("running")),
					statecheck.ExpectKnownValue("dwk_fleet.f", replica(1, "state"), knownvalue.StringExact("unreachable")),
				},
			},
			{
				// Gone from hosts: dropped without reaching it.
				Config: fleetConfig("acc-dead", artifact, []testHost{hosts[0], hosts[2]}, "  service = \"process\"\n  log_level = \"debug\"\n  remove_unreachable = true"),
				Check:  checkReady([]testHost{hosts[0], hosts[2]}),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("dwk_fleet.f", tfjsonpath.New("replicas"), knownvalue.ListSizeExact(2)),
				},
			},
		},
	})
}
