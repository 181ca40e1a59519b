package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// deletionProtectionAttr is the deletion_protection attribute of a
// resource whose Delete destroys data (what names it). It lives in the
// state, so a destroy sees it even when the resource's block is gone
// from the configuration: turning protection off is an apply of its own.
func deletionProtectionAttr(what string) schema.BoolAttribute {
	return schema.BoolAttribute{
		MarkdownDescription: "Refuse to delete " + what + ": `terraform destroy` (and a replacement) fails until an apply has set " +
			"`deletion_protection = false`. Default: `false` (`modules/fleet` sets `true`).",
		Optional: true, Computed: true, Default: booldefault.StaticBool(false),
	}
}

// refuseDeletion adds the error of a protected resource's Delete and
// reports whether it did.
func refuseDeletion(protected types.Bool, typ, name string, diags *diag.Diagnostics) bool {
	if !boolValue(protected) {
		return false
	}
	diags.AddError(fmt.Sprintf("%s %s has deletion_protection = true", typ, name),
		fmt.Sprintf("Deleting it would destroy its data, so it is refused. To delete it, set deletion_protection = false, "+
			"run terraform apply, then destroy again (in modules/fleet: the variable deletion_protection)."))
	return true
}
