package provider

import (
	"encoding/json"
	"fmt"
	"net/http"
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

	"github.com/dwk/fleet/test/procs"
	"github.com/dwk/fleet/test/sshd"
)

// TestAccFleetProject deploys a Workers project in JavaScript to two
// replicas, one on this machine and one over SSH: the provider builds it into an artifact that travels with the
// binary; an edit of one line of its script changes project_hash and rolls
// the fleet; a changed write-only secret rolls it too and is never in the
// state; a project that does not build fails the plan, naming it.
func TestAccFleetProject(t *testing.T) {
	testAccPreCheck(t)
	hosts := append(localHosts(t, 1), sshHosts(t, sshd.Start(t, 1))...)
	artifact := filepath.Join(t.TempDir(), "dwk")
	copyFile(t, procs.DeployBinary(t), artifact)
	dir := filepath.Join(t.TempDir(), "greeter")
	copyTree(t, "testdata/fleet-project", dir)
	script := filepath.Join(dir, "src", "index.js")
	setVersion := func(v string) {
		b, err := os.ReadFile(script)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitN(string(b), "\n", 2)
		lines[0] = fmt.Sprintf("const VERSION = %q;", v)
		if err := os.WriteFile(script, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := func(token string) string {
		return fleetConfig("acc-project", artifact, hosts, fmt.Sprintf(`  service = "process"
  workers = [{ project = %q, secrets = { TOKEN = %q } }]`, dir, token))
	}
	hash := tfjsonpath.New("workers").AtSliceIndex(0).AtMapKey("project_hash")
	var hash1 string
	var good []byte
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		CheckDestroy:             checkGone(hosts),
		Steps: []resource.TestStep{
			{
				Config: cfg("t0k3n"),
				Check: resource.ComposeTestCheckFunc(
					checkReady(hosts),
					checkGreeter(hosts, "t0k3n", "1"),
					func(s *terraform.State) error {
						hash1 = s.RootModule().Resources["dwk_fleet.f"].Primary.Attributes["workers.0.project_hash"]
						return nil
					},
				),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("dwk_fleet.f", tfjsonpath.New("workers").AtSliceIndex(0).AtMapKey("name"), knownvalue.StringExact("greeter")),
					statecheck.ExpectKnownValue("dwk_fleet.f", hash, knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{64}$`))),
					statecheck.ExpectKnownValue("dwk_fleet.f", tfjsonpath.New("workers").AtSliceIndex(0).AtMapKey("secrets"), knownvalue.Null()),
				},
			},
			{
				// One line of the script: a new hash in the plan, a roll.
				PreConfig: func() { setVersion("2") },
				Config:    cfg("t0k3n"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("dwk_fleet.f", plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue("dwk_fleet.f", hash, knownvalue.StringFunc(func(v string) error {
						if v == hash1 {
							return fmt.Errorf("project_hash %s did not change with the script", v)
						}
						return nil
					})),
				}},
				Check: resource.ComposeTestCheckFunc(checkReady(hosts), checkGreeter(hosts, "t0k3n", "2"), checkProjectFiles(hosts, 2)),
			},
			{
				// A new secret value rolls the fleet; the state has none.
				Config: cfg("s3cond"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("dwk_fleet.f", plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(checkGreeter(hosts, "s3cond", "2"), checkProjectFiles(hosts, 1)),
			},
			{
				// Code that does not parse stops the plan; the fleet keeps
				// serving what it ran.
				PreConfig: func() {
					good, _ = os.ReadFile(script)
					os.WriteFile(script, []byte("export default { fetch( {"), 0o644)
				},
				Config:      cfg("s3cond"),
				ExpectError: errRE("Cannot build the Workers project", "index.js"),
			},
			{
				// The same sources again build the same artifact: nothing
				// to do.
				PreConfig: func() { os.WriteFile(script, good, 0o644) },
				Config:    cfg("s3cond"),
				PlanOnly:  true,
			},
		},
	})
}

// checkGreeter checks every replica's answer: the version and the secret.
func checkGreeter(hosts []testHost, token, version string) func(*terraform.State) error {
	return func(*terraform.State) error {
		c := &http.Client{Timeout: 10 * time.Second}
		for _, h := range hosts {
			req, _ := http.NewRequest("GET", "http://"+h.public+"/", nil)
			req.Header.Set("Authorization", "Bearer "+token)
			resp, err := c.Do(req)
			if err != nil {
				return err
			}
			var got struct {
				Version    string `json:"version"`
				Greeting   string `json:"greeting"`
				Authorized bool   `json:"authorized"`
			}
			err = json.NewDecoder(resp.Body).Decode(&got)
			resp.Body.Close()
			if err != nil {
				return fmt.Errorf("%s: %d %v", h.public, resp.StatusCode, err)
			}
			if got.Version != version || got.Greeting != "hello" || !got.Authorized {
				return fmt.Errorf("%s answered %+v, want version %s, greeting hello, authorized", h.public, got, version)
			}
		}
		return nil
	}
}

// checkProjectFiles checks that each host keeps n artifacts: the active
// config's and the previous one's.
func checkProjectFiles(hosts []testHost, n int) func(*terraform.State) error {
	return func(*terraform.State) error {
		for _, h := range hosts {
			got, _ := filepath.Glob(filepath.Join(h.installDir, "projects", "*.dwkb"))
			if len(got) != n {
				return fmt.Errorf("%s holds %d artifacts %v, want %d", h.installDir, len(got), got, n)
			}
		}
		return nil
	}
}

// copyTree copies the directory src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if fi.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
