package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/dwk/fleet/appliance/fleet/objectid"
)

// objectIDFunction is provider::dwk::object_id: the id dwk gives the named
// Durable Object, computed exactly as the replicas compute it.
type objectIDFunction struct{}

var _ function.Function = objectIDFunction{}

// NewObjectIDFunction returns object_id.
func NewObjectIDFunction() function.Function { return objectIDFunction{} }

func (objectIDFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "object_id"
}

func (objectIDFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "The id of a named Durable Object",
		MarkdownDescription: "Returns the id (64 lowercase hex digits) that a fleet gives the object `name` of namespace `namespace` " +
			"(`IDFromName` in worker code): HMAC-SHA256 over the namespace and name, keyed with the fleet secret, as " +
			"`appliance/fleet/objectid` defines it. Useful to find an object's database or to pre-compute ids in configuration. Requires Terraform 1.8 or later.",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "secret", MarkdownDescription: "The fleet secret (`dwk_fleet.secret`)."},
			function.StringParameter{Name: "namespace", MarkdownDescription: "The object namespace (class name), e.g. `\"Counter\"`."},
			function.StringParameter{Name: "name", MarkdownDescription: "The object name."},
		},
		Return: function.StringReturn{},
	}
}

func (objectIDFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var secret, namespace, name string
	resp.Error = function.ConcatFuncErrors(req.Arguments.Get(ctx, &secret, &namespace, &name))
	if resp.Error != nil {
		return
	}
	if secret == "" {
		resp.Error = function.NewArgumentFuncError(0, "the secret must not be empty")
		return
	}
	if namespace == "" {
		resp.Error = function.NewArgumentFuncError(1, "the namespace must not be empty")
		return
	}
	id := objectid.FromName([]byte(secret), namespace, name)
	resp.Error = function.ConcatFuncErrors(resp.Result.Set(ctx, id.String()))
}
