package provider

import (
	"context"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/dwk/fleet/appliance/fleet/namespaces"
	"github.com/dwk/fleet/provider/internal/validators"
)

// databaseNameFunction is one of the functions that name a fleet's libSQL
// databases: coord_database, queues_database and d1_database. Each returns
// what appliance/fleet/namespaces returns in the replicas, so the
// databases Terraform creates are the ones the replicas open.
type databaseNameFunction struct {
	name, summary, what string
	// args are the parameters after fleet.
	args []function.Parameter
	// of names the database; args holds the values of the parameters
	// after fleet.
	of func(fleet string, args []string) string
}

var _ function.Function = (*databaseNameFunction)(nil)

// NewCoordDatabaseFunction returns coord_database.
func NewCoordDatabaseFunction() function.Function {
	return &databaseNameFunction{
		name: "coord_database", summary: "The name of a fleet's coordination database",
		what: "the coordination database of fleet `fleet` (`dwk-coord-<fleet>`): the coordination KV of leases, membership, " +
			"KV namespaces, cron ticks and the mode marker",
		of: func(fleet string, _ []string) string { return namespaces.Coord(fleet) },
	}
}

// NewQueuesDatabaseFunction returns queues_database.
func NewQueuesDatabaseFunction() function.Function {
	return &databaseNameFunction{
		name: "queues_database", summary: "The name of a fleet's queue database",
		what: "the queue broker's database of fleet `fleet` (`dwk-queues-<fleet>`)",
		of:   func(fleet string, _ []string) string { return namespaces.Queues(fleet) },
	}
}

// NewD1DatabaseFunction returns d1_database.
func NewD1DatabaseFunction() function.Function {
	return &databaseNameFunction{
		name: "d1_database", summary: "The name of the libSQL database behind a D1 database",
		what: "the database behind D1 database `name` of fleet `fleet` (`dwk-<fleet>-d1-<name>`)",
		args: []function.Parameter{function.StringParameter{
			Name:                "name",
			MarkdownDescription: "The D1 database name, as the workers' `bindings.d1` give it (the right-hand side), e.g. `\"chat\"`.",
		}},
		of: func(fleet string, args []string) string { return namespaces.D1(fleet, args[0]) },
	}
}

func (f *databaseNameFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = f.name
}

func (f *databaseNameFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: f.summary,
		MarkdownDescription: "Returns the name of " + f.what + ", as the replicas compute it (`appliance/fleet/namespaces`): " +
			"the `name` to give its `dwk_database`. Names longer than " + strconv.Itoa(namespaces.MaxLen) + " characters keep a " +
			"readable prefix and end in `-` and 16 hex digits of the SHA-256 of the full name. Requires Terraform 1.8 or later.",
		Parameters: append([]function.Parameter{function.StringParameter{
			Name:                "fleet",
			MarkdownDescription: "The fleet name (`dwk_fleet.name`): 1-63 characters of `a-z`, `0-9` and `-`.",
		}}, f.args...),
		Return: function.StringReturn{},
	}
}

func (f *databaseNameFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	vals := make([]string, 1+len(f.args))
	targets := make([]any, len(vals))
	for i := range vals {
		targets[i] = &vals[i]
	}
	resp.Error = function.ConcatFuncErrors(req.Arguments.Get(ctx, targets...))
	if resp.Error != nil {
		return
	}
	if err := validators.CheckFleetName(vals[0]); err != nil {
		resp.Error = function.NewArgumentFuncError(0, err.Error())
		return
	}
	for i, v := range vals[1:] {
		if v == "" {
			resp.Error = function.NewArgumentFuncError(int64(i+1), "the "+f.args[i].GetName()+" must not be empty")
			return
		}
	}
	resp.Error = function.ConcatFuncErrors(resp.Result.Set(ctx, f.of(vals[0], vals[1:])))
}
