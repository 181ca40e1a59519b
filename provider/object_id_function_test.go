package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/dwk/fleet/appliance/fleet/objectid"
)

func TestAccObjectIDFunction(t *testing.T) {
	testAccPreCheck(t)
	t.Parallel()
	want := objectid.FromName([]byte(testSecret), "Counter", "lobby").String()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		Steps: []resource.TestStep{
			{
				Config: `output "id" { value = provider::dwk::object_id("` + testSecret + `", "Counter", "lobby") }`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("id", knownvalue.StringExact(want)),
				},
			},
			{
				Config:      `output "id" { value = provider::dwk::object_id("", "Counter", "lobby") }`,
				ExpectError: regexp.MustCompile(`secret must not be empty`),
			},
		},
	})
}
