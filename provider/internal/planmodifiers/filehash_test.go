package planmodifiers

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestFileSHA256(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bin")
	os.WriteFile(file, []byte("hello\n"), 0o644)
	s := schema.Schema{Attributes: map[string]schema.Attribute{
		"artifact": schema.StringAttribute{Required: true},
		"sha":      schema.StringAttribute{Computed: true},
	}}
	objType := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"artifact": tftypes.String, "sha": tftypes.String}}
	for _, c := range []struct {
		name     string
		artifact tftypes.Value
		want     types.String
		err      bool
	}{
		{"file", tftypes.NewValue(tftypes.String, file), types.StringValue("5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"), false},
		{"unknown", tftypes.NewValue(tftypes.String, tftypes.UnknownValue), types.StringUnknown(), false},
		{"missing", tftypes.NewValue(tftypes.String, file+".missing"), types.StringUnknown(), true},
	} {
		plan := tfsdk.Plan{Schema: s, Raw: tftypes.NewValue(objType, map[string]tftypes.Value{
			"artifact": c.artifact, "sha": tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		})}
		req := planmodifier.StringRequest{Path: path.Root("sha"), Plan: plan, PlanValue: types.StringUnknown()}
		resp := &planmodifier.StringResponse{PlanValue: types.StringUnknown()}
		FileSHA256(path.Root("artifact")).PlanModifyString(context.Background(), req, resp)
		if resp.Diagnostics.HasError() != c.err {
			t.Errorf("%s: diagnostics %v", c.name, resp.Diagnostics)
		}
		if !c.err && !resp.PlanValue.Equal(c.want) {
			t.Errorf("%s: planned %v, want %v", c.name, resp.PlanValue, c.want)
		}
	}
}
