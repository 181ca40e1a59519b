// Package planmodifiers holds the dwk provider's attribute plan modifiers.
package planmodifiers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// FileSHA256 plans a computed string attribute as the hex sha256 of the
// local file named by the string attribute at pathAttr, so that a changed
// file (same path, new content) shows as a diff and drives an update. An
// unknown path plans an unknown hash; a file that cannot be read is an
// error on pathAttr.
func FileSHA256(pathAttr path.Path) planmodifier.String { return fileSHA256{pathAttr} }

type fileSHA256 struct{ pathAttr path.Path }

var _ planmodifier.String = fileSHA256{}

func (m fileSHA256) Description(context.Context) string {
	return fmt.Sprintf("the sha256 of the file named by %s", m.pathAttr)
}

func (m fileSHA256) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (m fileSHA256) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	var p types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, m.pathAttr, &p)...)
	if resp.Diagnostics.HasError() {
		return
	}
	switch {
	case p.IsUnknown():
		resp.PlanValue = types.StringUnknown()
		return
	case p.IsNull():
		resp.PlanValue = types.StringNull()
		return
	}
	sum, err := hashFile(p.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(m.pathAttr, "Cannot read the file", fmt.Sprintf("Computing the sha256 of %s: %v", p.ValueString(), err))
		return
	}
	resp.PlanValue = types.StringValue(sum)
}

func hashFile(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
