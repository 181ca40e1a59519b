package provider

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/dwk/fleet/test/machines"
	"github.com/dwk/fleet/test/procs"
)

// TestAccFleetProjectSystemd deploys a Workers project in JavaScript to a
// booted systemd machine: the replica runs it as a sandboxed unit rated at
// most maxExposure, and its records about the worker carry the journal
// field WORKER, so `journalctl WORKER=<name>` selects them.
func TestAccFleetProjectSystemd(t *testing.T) {
	testAccPreCheck(t)
	t.Parallel()
	set := machines.Boot(t, 1)
	hosts := machineHosts(set, "accjs")
	artifact := filepath.Join(t.TempDir(), "dwk")
	copyFile(t, procs.DeployBinary(t), artifact)
	dir := filepath.Join(t.TempDir(), "greeter")
	copyTree(t, "testdata/fleet-project", dir)
	const unit = "dwk-accjs.service"
	cfg := fleetConfig("accjs", artifact, hosts, fmt.Sprintf(`  workers = [{ project = %q, secrets = { TOKEN = "t0k3n" } }]`, dir))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{{
			Config: cfg,
			Check:  resource.ComposeTestCheckFunc(checkGreeter(hosts, "t0k3n", "1"), checkUnits(t, set, unit), checkWorkerJournal(set, unit, "greeter")),
		}},
	})
}

// checkWorkerJournal checks that each machine's journal holds a record of
// unit with the field WORKER=worker: the record that loaded its project.
func checkWorkerJournal(set *machines.Set, unit, worker string) func(*terraform.State) error {
	return func(*terraform.State) error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		for _, m := range set.Machines {
			out, err := m.Run(ctx, fmt.Sprintf(`journalctl -u %s -o json --no-pager WORKER=%s`, unit, worker))
			if err != nil || !strings.Contains(string(out), `"MESSAGE":"project loaded `) {
				return fmt.Errorf("%s: no record with WORKER=%s of %s saying the project loaded: %v %s", m.Name, worker, unit, err, out)
			}
		}
		return nil
	}
}
