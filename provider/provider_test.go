package provider

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/dwk/fleet/test/needtool"
)

// testAccProviders runs the provider in the test process, so acceptance
// tests need no provider binary and no registry.
var testAccProviders = map[string]func() (tfprotov6.ProviderServer, error){
	TypeName: providerserver.NewProtocol6WithError(New("test")()),
}

// terraformInstall says how to get the CLI the acceptance tests drive.
const terraformInstall = "terraform 1.11 or later from https://developer.hashicorp.com/terraform/install, on PATH or in TF_ACC_TERRAFORM_PATH"

// testAccPreCheck skips acceptance tests that cannot run here. Terraform
// itself must be installed: the tests never download it. A missing
// terraform fails the test under CI (see test/needtool).
func testAccPreCheck(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run with TF_ACC=1")
	}
	needtool.File(t, "terraform", os.Getenv("TF_ACC_TERRAFORM_PATH"), terraformInstall)
}

// accEnv points the acceptance tests at the terraform on PATH, once for
// the package (a test that sets the environment itself cannot run in
// parallel with others).
func accEnv() {
	if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		if p, err := exec.LookPath("terraform"); err == nil {
			os.Setenv("TF_ACC_TERRAFORM_PATH", p)
		}
	}
	os.Setenv("CHECKPOINT_DISABLE", "1")
}

func TestProviderSchemasAreValid(t *testing.T) {
	srv, err := testAccProviders[TypeName]()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		t.Errorf("schema diagnostic: %s: %s", d.Summary, d.Detail)
	}
	for _, name := range []string{"dwk_database", "dwk_bucket", "dwk_fleet", "dwk_libsql_server", "dwk_mode_marker"} {
		if _, ok := resp.ResourceSchemas[name]; !ok {
			t.Errorf("resource %s missing", name)
		}
	}
	if _, ok := resp.DataSourceSchemas["dwk_fleet_status"]; !ok {
		t.Error("data source dwk_fleet_status missing")
	}
	for _, name := range []string{"object_id", "coord_database", "queues_database", "d1_database"} {
		if _, ok := resp.Functions[name]; !ok {
			t.Errorf("function %s missing", name)
		}
	}
	for name, s := range resp.ResourceSchemas {
		for _, a := range s.Block.Attributes {
			if a.Description == "" {
				t.Errorf("%s.%s has no description", name, a.Name)
			}
		}
	}
}
