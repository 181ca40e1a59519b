package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/defaults"

	"github.com/dwk/fleet/provider/internal/modulevars"
)

// TestModuleDefaultsAreSchemaDefaults checks what modulevars writes into
// modules/fleet against dwk_fleet's schema: every variable it sets names
// a dwk_fleet attribute, with that attribute's default.
func TestModuleDefaultsAreSchemaDefaults(t *testing.T) {
	ctx := context.Background()
	var resp resource.SchemaResponse
	NewFleetResource().Schema(ctx, resource.SchemaRequest{}, &resp)
	for name, want := range modulevars.FleetDefaults() {
		a, ok := resp.Schema.Attributes[name]
		if !ok {
			t.Errorf("modules/fleet's variable %s has no dwk_fleet attribute", name)
			continue
		}
		got, err := schemaDefault(ctx, a)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: modules/fleet's default is %v, dwk_fleet's %v", name, want, got)
		}
	}
}

// schemaDefault is the static default of a string, number or bool
// attribute.
func schemaDefault(ctx context.Context, a schema.Attribute) (any, error) {
	switch a := a.(type) {
	case schema.StringAttribute:
		if a.Default == nil {
			return nil, fmt.Errorf("no default")
		}
		var r defaults.StringResponse
		a.Default.DefaultString(ctx, defaults.StringRequest{}, &r)
		return r.PlanValue.ValueString(), nil
	case schema.Int64Attribute:
		if a.Default == nil {
			return nil, fmt.Errorf("no default")
		}
		var r defaults.Int64Response
		a.Default.DefaultInt64(ctx, defaults.Int64Request{}, &r)
		return r.PlanValue.ValueInt64(), nil
	case schema.BoolAttribute:
		if a.Default == nil {
			return nil, fmt.Errorf("no default")
		}
		var r defaults.BoolResponse
		a.Default.DefaultBool(ctx, defaults.BoolRequest{}, &r)
		return r.PlanValue.ValueBool(), nil
	}
	return nil, fmt.Errorf("attribute of type %T", a)
}
