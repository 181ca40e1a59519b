package provider

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// testAccProviders runs the provider in the test process, so acceptance
// tests need no provider binary and no registry.
var testAccProviders = map[string]func() (tfprotov6.ProviderServer, error){
	TypeName: providerserver.NewProtocol6WithError(New("test")()),
}

// testAccPreCheck skips acceptance tests that cannot run here. Terraform
// itself must be installed: the tests never download it.
func testAccPreCheck(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run with TF_ACC=1")
	}
	p := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if p == "" {
		var err error
		if p, err = exec.LookPath("terraform"); err != nil {
			t.Skip("acceptance tests need the terraform CLI (1.11 or later) in PATH or TF_ACC_TERRAFORM_PATH; none found")
		}
		t.Setenv("TF_ACC_TERRAFORM_PATH", p)
	}
	t.Setenv("CHECKPOINT_DISABLE", "1")
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
	for _, name := range []string{"dwk_database", "dwk_bucket", "dwk_fleet", "dwk_mode_marker"} {
		if _, ok := resp.ResourceSchemas[name]; !ok {
			t.Errorf("resource %s missing", name)
		}
	}
	if _, ok := resp.DataSourceSchemas["dwk_fleet_status"]; !ok {
		t.Error("data source dwk_fleet_status missing")
	}
	if _, ok := resp.Functions["object_id"]; !ok {
		t.Error("function object_id missing")
	}
	for name, s := range resp.ResourceSchemas {
		for _, a := range s.Block.Attributes {
			if a.Description == "" {
				t.Errorf("%s.%s has no description", name, a.Name)
			}
		}
	}
}
