package provider

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/dwk/fleet/appliance/fleet/namespaces"
)

// run calls f with args as Terraform would, returning its result or error.
func run(t *testing.T, f function.Function, args ...string) (string, *function.FuncError) {
	t.Helper()
	vals := make([]attr.Value, len(args))
	for i, a := range args {
		vals[i] = types.StringValue(a)
	}
	resp := &function.RunResponse{Result: function.NewResultData(types.StringUnknown())}
	f.Run(context.Background(), function.RunRequest{Arguments: function.NewArgumentsData(vals)}, resp)
	if resp.Error != nil {
		return "", resp.Error
	}
	return resp.Result.Value().(types.String).ValueString(), nil
}

func TestDatabaseNameFunctions(t *testing.T) {
	long := strings.Repeat("a", 63)
	for _, fleet := range []string{"prod", long} {
		for _, tt := range []struct {
			f    function.Function
			args []string
			want string
		}{
			{NewCoordDatabaseFunction(), nil, namespaces.Coord(fleet)},
			{NewQueuesDatabaseFunction(), nil, namespaces.Queues(fleet)},
			{NewD1DatabaseFunction(), []string{"chat"}, namespaces.D1(fleet, "chat")},
		} {
			got, err := run(t, tt.f, append([]string{fleet}, tt.args...)...)
			if err != nil || got != tt.want {
				t.Errorf("%T(%s, %v) = %q, %v; want %q", tt.f, fleet, tt.args, got, err, tt.want)
			}
		}
	}
	if got, _ := run(t, NewCoordDatabaseFunction(), "prod"); got != "dwk-coord-prod" {
		t.Errorf("coord_database(prod) = %q, want dwk-coord-prod", got)
	}
}

func TestDatabaseNameFunctionErrors(t *testing.T) {
	for _, tt := range []struct {
		f       function.Function
		args    []string
		wantArg int64
		want    string
	}{
		{NewCoordDatabaseFunction(), []string{"Prod"}, 0, "not a fleet name"},
		{NewQueuesDatabaseFunction(), []string{""}, 0, "not a fleet name"},
		{NewD1DatabaseFunction(), []string{"prod", ""}, 1, "name must not be empty"},
	} {
		_, err := run(t, tt.f, tt.args...)
		if err == nil || err.FunctionArgument == nil || *err.FunctionArgument != tt.wantArg || !strings.Contains(err.Text, tt.want) {
			t.Errorf("%T(%q) error = %+v, want one about argument %d saying %q", tt.f, tt.args, err, tt.wantArg, tt.want)
		}
	}
}

func TestAccDatabaseNameFunctions(t *testing.T) {
	testAccPreCheck(t)
	t.Parallel()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		Steps: []resource.TestStep{
			{
				Config: `
output "coord"  { value = provider::dwk::coord_database("prod") }
output "queues" { value = provider::dwk::queues_database("prod") }
output "d1"     { value = provider::dwk::d1_database("prod", "chat") }
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("coord", knownvalue.StringExact(namespaces.Coord("prod"))),
					statecheck.ExpectKnownOutputValue("queues", knownvalue.StringExact(namespaces.Queues("prod"))),
					statecheck.ExpectKnownOutputValue("d1", knownvalue.StringExact(namespaces.D1("prod", "chat"))),
				},
			},
			{
				Config:      `output "coord" { value = provider::dwk::coord_database("Prod") }`,
				ExpectError: regexp.MustCompile(`not a fleet name`),
			},
		},
	})
}
