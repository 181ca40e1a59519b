package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// getter is what the framework's tfsdk.Plan, tfsdk.State and tfsdk.Config
// have in common: decoding into a model.
type getter interface {
	Get(ctx context.Context, target any) diag.Diagnostics
}

// decode decodes src (a request's plan, state or config) into a new T and
// adds the diagnostics to diags. ok is false when diags holds an error: the
// caller returns at once. Every CRUD method starts with it, usually
// through its resource's begin.
func decode[T any](ctx context.Context, src getter, diags *diag.Diagnostics) (m T, ok bool) {
	diags.Append(src.Get(ctx, &m)...)
	return m, !diags.HasError()
}
