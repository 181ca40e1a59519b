package provider

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/dwk/fleet/test/procs"
)

// TestAccFleetTimeouts: an update whose rollout outlasts timeouts.update
// (the rolled replica must stay healthy for 30 s; the timeout is 1 s)
// fails soon, naming the timeout, and the next apply with room to finish
// repairs it. A create does not wait min_healthy_time (new hosts carry no
// traffic yet), so only a roll is certain to outlast a short timeout.
func TestAccFleetTimeouts(t *testing.T) {
	testAccPreCheck(t)
	hosts := localHosts(t, 1)
	artifact := filepath.Join(t.TempDir(), "dwk")
	copyFile(t, procs.DeployBinary(t), artifact)
	var start time.Time
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		CheckDestroy:             checkGone(hosts),
		Steps: []resource.TestStep{
			{
				Config: fleetConfig("acc-timeout", artifact, hosts, "  service = \"process\"\n"),
				Check:  checkReady(hosts),
			},
			{
				PreConfig:   func() { start = time.Now() },
				Config:      fleetConfig("acc-timeout", artifact, hosts, "  service = \"process\"\n  drain_timeout = \"6s\"\n  min_healthy_time = \"30s\"\n  timeouts {\n    update = \"1s\"\n  }\n"),
				ExpectError: errRE("dwk_fleet: update timed out after 1s", "timeouts.update (1s)"),
			},
			{
				PreConfig: func() {
					// Well before min_healthy_time: the timeout, not the rollout, ended the apply.
					if took := time.Since(start); took > 25*time.Second {
						t.Errorf("the timed-out update took %s", took)
					}
				},
				Config: fleetConfig("acc-timeout", artifact, hosts, "  service = \"process\"\n  drain_timeout = \"6s\"\n"),
				Check:  checkReady(hosts),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("dwk_fleet.f", tfjsonpath.New("replicas").AtSliceIndex(0).AtMapKey("state"), knownvalue.StringExact("running")),
				},
			},
		},
	})
}
