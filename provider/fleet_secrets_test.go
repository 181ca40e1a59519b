package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/dwk/fleet/appliance/fleet/internaltls"
	"github.com/dwk/fleet/test/freeport"
	"github.com/dwk/fleet/test/libsqlserver"
	"github.com/dwk/fleet/test/procs"
	"github.com/dwk/fleet/test/s3server"
	"github.com/dwk/fleet/test/sshd"
)

// TestAccFleetSecretsOutOfState deploys a central-mode fleet over SSH, on
// a libSQL server that wants TLS with a private CA, tokens and an admin
// key, with every secret dwk_fleet takes — the fleet secret, the admin token, the
// hosts' SSH key, the libSQL auth token and admin key, the S3 secret key —
// and then looks for each of them in `terraform show -json` and in every
// state file Terraform wrote. None may be there. The plan after the apply
// must be empty too: the admin token read back from the hosts and the
// salted config hash converge without any of them in the state. Then the
// fleet is imported by name, with an import block (the plan must be a
// no-op) and with `terraform import` (the state must be the applied one).
func TestAccFleetSecretsOutOfState(t *testing.T) {
	testAccPreCheck(t)
	tmp := t.TempDir()
	t.Setenv("TF_ACC_TEMP_DIR", tmp) // the state files land under it
	lib := libsqlserver.StartSecure(t)
	s3 := s3server.Start(t)
	hosts := sshHosts(t, sshd.Start(t, 2))
	artifact := filepath.Join(t.TempDir(), "dwk")
	copyFile(t, procs.DeployBinary(t), artifact)
	fleet := libsqlserver.Namespace("sec")
	bucket := s3.NewBucket(t)
	adminToken := "admin-" + strings.Repeat("5e", 20)

	var hostsHCL strings.Builder
	internals := make([]string, len(hosts))
	for i, h := range hosts {
		internals[i] = freeport.Must(t, h.ssh.Address)
		fmt.Fprintf(&hostsHCL, "    { address = %q, port = %d, user = %q, private_key = %q, host_key = %q, install_dir = %q, public = %q, admin = %q,\n"+
			"      internal = %q, advertise = %q },\n",
			h.ssh.Address, h.ssh.Port, h.ssh.User, h.ssh.PrivateKey, h.ssh.HostKey, h.installDir, h.public, h.admin,
			internals[i], "")
	}
	cfg := fmt.Sprintf(`
terraform {
  required_providers {
    dwk = { source = "registry.terraform.io/hashicorp/dwk" }
  }
}

provider "dwk" {
  libsql = { url = %[1]q, admin_url = %[2]q, admin_token = %[3]q, auth_token = %[15]q, ca_file = %[17]q }
  s3     = { endpoint = %[4]q, region = %[5]q, access_key = %[6]q, secret_key = %[7]q, path_style = %[8]v }
  ssh    = { private_key = %[9]q, agent = false }
}

resource "dwk_database" "coord" {
  name = provider::dwk::coord_database(%[10]q)
}
resource "dwk_database" "queues" {
  name = provider::dwk::queues_database(%[10]q)
}
resource "dwk_database" "chat" {
  name = provider::dwk::d1_database(%[10]q, "chat")
}
resource "dwk_mode_marker" "m" {
  fleet      = %[10]q
  bucket     = %[11]q
  depends_on = [dwk_database.coord]
}

resource "dwk_fleet" "f" {
  name             = %[10]q
  secret           = %[12]q
  admin_token      = %[13]q
  artifact         = %[14]q
  storage_mode     = "central"
  service          = "process"
  drain_timeout    = "5s"
  min_healthy_time = "1s"
  libsql = { auth_token = %[15]q, admin_token = %[3]q }
  s3     = { bucket = dwk_mode_marker.m.bucket, secret_key = %[7]q }
  hosts = [
%[16]s  ]
  depends_on = [dwk_database.queues, dwk_database.chat]
}

data "dwk_fleet_status" "s" {
  hosts = [for h in dwk_fleet.f.hosts : { address = h.address, port = h.port, user = h.user, host_key = h.host_key, admin = h.admin, install_dir = h.install_dir }]
  depends_on = [dwk_fleet.f]
}
`, lib.URL, lib.AdminURL, lib.AdminKey, s3.Endpoint, s3.Region, s3.AccessKey, s3.SecretKey, s3.PathStyle, hosts[0].ssh.PrivateKey,
		fleet, bucket, testSecret, adminToken, artifact, lib.AuthToken, hostsHCL.String(), lib.CAFile)
	cfg = strings.ReplaceAll(cfg, `, advertise = ""`, "")

	ca, err := internaltls.FromSecret([]byte(testSecret), fleet)
	if err != nil {
		t.Fatal(err)
	}
	memberKey, err := ca.Member(hosts[0].ssh.Address)
	if err != nil {
		t.Fatal(err)
	}
	secrets := map[string]string{
		"fleet secret": testSecret, "admin token": adminToken, "libSQL auth token": lib.AuthToken,
		"libSQL admin key": lib.AdminKey, "S3 secret key": s3.SecretKey, "SSH private key": pemBody(hosts[0].ssh.PrivateKey),
		"member TLS key": pemBody(string(memberKey.Key)),
	}
	noSecrets := func(where, text string) error {
		for name, v := range secrets {
			if v != "" && strings.Contains(text, v) {
				return fmt.Errorf("the %s is in %s", name, where)
			}
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		CheckDestroy:             checkGone(hosts),
		Steps: []resource.TestStep{{
			Config: cfg,
			Check: resource.ComposeTestCheckFunc(
				checkReady(hosts),
				resource.TestCheckResourceAttr("data.dwk_fleet_status.s", "ready", "2"),
				resource.TestCheckResourceAttr("dwk_fleet.f", "internal_ca_certificate", string(ca.CertPEM())),
				checkInternalTLS(hosts, internals, fleet, ca.CertPEM()),
				checkCountersAcross(hosts),
				func(*terraform.State) error {
					files, _ := filepath.Glob(filepath.Join(tmp, "*", "*", "terraform.tfstate*"))
					more, _ := filepath.Glob(filepath.Join(tmp, "*", "terraform.tfstate*"))
					files = append(files, more...)
					if len(files) == 0 {
						return fmt.Errorf("no state file under %s", tmp)
					}
					for _, f := range files {
						b, err := os.ReadFile(f)
						if err != nil {
							return err
						}
						if !strings.Contains(string(b), `"dwk_fleet"`) {
							continue
						}
						if err := noSecrets(f, string(b)); err != nil {
							return err
						}
					}
					return nil
				},
			),
			ConfigStateChecks: []statecheck.StateCheck{showJSONCheck(noSecrets)},
		}, {
			// A lost state: an import block adopts the running fleet by
			// name, from the record in its coordination database, and the
			// plan is a no-op.
			Config: cfg, ResourceName: "dwk_fleet.f", ImportState: true,
			ImportStateKind: resource.ImportBlockWithID, ImportStateId: fleet,
		}, {
			// `terraform import` gives the state the last apply left.
			Config: cfg, ResourceName: "dwk_fleet.f", ImportState: true,
			ImportStateId: fleet, ImportStateVerify: true,
		}},
	})
}

// pemBody is the first line of a PEM key's base64 body: enough to find
// the key, whatever quoting or escaping surrounds it.
func pemBody(pem string) string {
	lines := strings.Split(strings.TrimSpace(pem), "\n")
	if len(lines) < 3 {
		return pem
	}
	return lines[1]
}

// showJSONCheck runs check on `terraform show -json` (what
// ConfigStateChecks receive).
func showJSONCheck(check func(where, text string) error) statecheck.StateCheck {
	return stateCheckFunc(func(req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		b, err := json.Marshal(req.State)
		if err == nil {
			err = check("terraform show -json", string(b))
		}
		resp.Error = err
	})
}

// stateCheckFunc is a statecheck.StateCheck from a function.
type stateCheckFunc func(statecheck.CheckStateRequest, *statecheck.CheckStateResponse)

func (f stateCheckFunc) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	f(req, resp)
}
