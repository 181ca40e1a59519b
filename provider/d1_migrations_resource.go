package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/appliance/bindings/d1/d1central"
	"github.com/dwk/fleet/appliance/bindings/d1/d1migrations"
)

// d1MigrationsResource is dwk_d1_migrations: a D1 database's migrations
// directory, applied in order, once each, and tracked in the database as
// wrangler tracks them (d1migrations).
type d1MigrationsResource struct {
	data *providerData
}

var (
	_ resource.Resource               = (*d1MigrationsResource)(nil)
	_ resource.ResourceWithConfigure  = (*d1MigrationsResource)(nil)
	_ resource.ResourceWithModifyPlan = (*d1MigrationsResource)(nil)
)

// NewD1MigrationsResource returns dwk_d1_migrations.
func NewD1MigrationsResource() resource.Resource { return &d1MigrationsResource{} }

type d1MigrationsModel struct {
	ID            types.String `tfsdk:"id"`
	Database      types.String `tfsdk:"database"`
	MigrationsDir types.String `tfsdk:"migrations_dir"`
	Pattern       types.String `tfsdk:"migrations_pattern"`
	Table         types.String `tfsdk:"migrations_table"`
	FilesHash     types.String `tfsdk:"files_hash"`
	Applied       types.List   `tfsdk:"applied"`
}

func (r *d1MigrationsResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData)
}

func (r *d1MigrationsResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_d1_migrations"
}

func (r *d1MigrationsResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The migrations of a D1 database (a Workers project's `migrations_dir`), applied to its libSQL database " +
			"through the provider's `libsql.url`: in order, once each, every file in one transaction with its tracking row in " +
			"`d1_migrations`, as `wrangler d1 migrations apply` and `dwk d1 migrations apply` track them, so a database that " +
			"either migrated is recognised as migrated. A new or changed file changes the plan. A migration that fails stops " +
			"the apply with its name and the SQL error; make `dwk_fleet` depend on this resource so that no replica rolls to " +
			"code that needs it first. Destroying the resource leaves the database as it is: migrations are not undone.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{MarkdownDescription: "The database's name.", Computed: true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"database": schema.StringAttribute{
				MarkdownDescription: "The libSQL database (namespace) of the D1 database, e.g. `dwk_database.d1[\"shop-db\"].name` " +
					"(`provider::dwk::d1_database(fleet, database_name)`). It must exist.",
				Required: true, PlanModifiers: replace,
			},
			"migrations_dir": schema.StringAttribute{
				MarkdownDescription: "The migrations directory, e.g. `dwk_wrangler_config`'s `d1_databases[*].migrations_dir`.",
				Required:            true,
			},
			"migrations_pattern": schema.StringAttribute{
				MarkdownDescription: "The glob, relative to `migrations_dir`, that migration files match (wrangler's `migrations_pattern`). Default: `\"" + d1migrations.DefaultPattern + "\"`.",
				Optional:            true,
			},
			"migrations_table": schema.StringAttribute{
				MarkdownDescription: "The tracking table (wrangler's `migrations_table`). Default: `\"" + d1migrations.DefaultTable + "\"`.",
				Optional:            true, PlanModifiers: replace,
			},
			"files_hash": schema.StringAttribute{
				MarkdownDescription: "SHA-256 of the migration files' names and contents, in order, once all are applied; empty in the state while some file is not.",
				Computed:            true,
			},
			"applied": schema.ListAttribute{
				MarkdownDescription: "The migrations the tracking table records, in the order they were applied.",
				Computed:            true, ElementType: types.StringType,
			},
		},
	}
}

// migrations returns the Migrations of m and opens its database; close it.
func (r *d1MigrationsResource) migrations(m *d1MigrationsModel) (d1migrations.Migrations, *d1central.DB, error) {
	var conn libsqlConn
	if r.data != nil {
		conn = r.data.libsql
	}
	if conn.URL == "" {
		return d1migrations.Migrations{}, nil, fmt.Errorf("no libSQL URL: set libsql.url on the provider, or %s", EnvLibSQLURL)
	}
	db, err := d1central.Open(d1central.Config{URL: conn.URL, AuthToken: conn.AuthToken, CAFile: conn.CAFile, Namespace: m.Database.ValueString()})
	if err != nil {
		return d1migrations.Migrations{}, nil, err
	}
	return d1migrations.Migrations{
		DB: db, Dir: m.MigrationsDir.ValueString(),
		Pattern: m.Pattern.ValueString(), Table: m.Table.ValueString(),
	}, db, nil
}

// filesHash hashes the migration files of mig, names and contents, in
// the order they are applied.
func filesHash(mig d1migrations.Migrations) (string, []d1migrations.File, error) {
	files, err := mig.Files()
	if err != nil {
		return "", nil, err
	}
	h := sha256.New()
	for _, f := range files {
		src, err := f.Read()
		if err != nil {
			return "", nil, fmt.Errorf("read migration %s: %w", f.Name, err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", f.Name, len(src))
		h.Write(src)
	}
	return hex.EncodeToString(h.Sum(nil)), files, nil
}

// ModifyPlan plans files_hash from the directory as it is now, so that a
// new or edited migration is a change to apply.
func (r *d1MigrationsResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan d1MigrationsModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || plan.MigrationsDir.IsUnknown() || plan.Pattern.IsUnknown() {
		return
	}
	hash, _, err := filesHash(d1migrations.Migrations{Dir: plan.MigrationsDir.ValueString(), Pattern: plan.Pattern.ValueString()})
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("migrations_dir"), "Cannot read the migrations", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("files_hash"), hash)...)
	if req.State.Raw.IsNull() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("applied"), types.ListUnknown(types.StringType))...)
		return
	}
	var state d1MigrationsModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if state.FilesHash.ValueString() != hash || !plan.MigrationsDir.Equal(state.MigrationsDir) ||
		!plan.Pattern.Equal(state.Pattern) || !plan.Table.Equal(state.Table) {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("applied"), types.ListUnknown(types.StringType))...)
	} else {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("applied"), state.Applied)...)
	}
}

// apply applies the pending migrations and sets m from the database.
func (r *d1MigrationsResource) apply(ctx context.Context, m *d1MigrationsModel, diags *diag.Diagnostics) {
	mig, db, err := r.migrations(m)
	if err != nil {
		diags.AddError("Cannot open D1 database "+m.Database.ValueString(), err.Error())
		return
	}
	defer db.Close()
	if _, err := mig.Apply(ctx, nil); err != nil {
		var me *d1migrations.Error
		if errors.As(err, &me) {
			diags.AddError("Migration "+me.File.Name+" failed", err.Error())
			return
		}
		diags.AddError("Cannot apply the migrations of "+m.Database.ValueString(), err.Error())
		return
	}
	r.refresh(ctx, m, mig, diags)
}

// refresh sets m's applied and files_hash from the database and the
// directory.
func (r *d1MigrationsResource) refresh(ctx context.Context, m *d1MigrationsModel, mig d1migrations.Migrations, diags *diag.Diagnostics) {
	rows, err := mig.Applied(ctx)
	if err != nil {
		diags.AddError("Cannot read the migrations table of "+m.Database.ValueString(), err.Error())
		return
	}
	names := make([]string, 0, len(rows))
	done := map[string]bool{}
	for _, a := range rows {
		names = append(names, a.Name)
		done[a.Name] = true
	}
	list, d := types.ListValueFrom(ctx, types.StringType, names)
	diags.Append(d...)
	m.Applied = list
	m.ID = m.Database
	hash, files, err := filesHash(mig)
	if err != nil {
		// The directory is gone or unreadable: the plan says so.
		m.FilesHash = types.StringValue("")
		return
	}
	for _, f := range files {
		if !done[f.Name] {
			m.FilesHash = types.StringValue("") // a file to apply: the plan shows a change
			return
		}
	}
	m.FilesHash = types.StringValue(hash)
}

func (r *d1MigrationsResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.save(ctx, req.Plan, &resp.State, &resp.Diagnostics)
}

func (r *d1MigrationsResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.save(ctx, req.Plan, &resp.State, &resp.Diagnostics)
}

// save applies what plan holds and records the outcome in state.
func (r *d1MigrationsResource) save(ctx context.Context, plan getter, state *tfsdk.State, diags *diag.Diagnostics) {
	m, ok := decode[d1MigrationsModel](ctx, plan, diags)
	if !ok {
		return
	}
	// Apply what was planned: a file added or edited since is not run
	// unreviewed.
	now, _, err := filesHash(d1migrations.Migrations{Dir: m.MigrationsDir.ValueString(), Pattern: m.Pattern.ValueString()})
	if err != nil {
		diags.AddAttributeError(path.Root("migrations_dir"), "Cannot read the migrations", err.Error())
		return
	}
	if !m.FilesHash.IsUnknown() && m.FilesHash.ValueString() != now {
		diags.AddAttributeError(path.Root("migrations_dir"), "The migrations changed since the plan",
			"A file in "+m.MigrationsDir.ValueString()+" was added, removed or edited after terraform plan; nothing was applied. Plan again.")
		return
	}
	r.apply(ctx, &m, diags)
	if diags.HasError() {
		return
	}
	diags.Append(state.Set(ctx, &m)...)
}

func (r *d1MigrationsResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	m, ok := decode[d1MigrationsModel](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	mig, db, err := r.migrations(&m)
	if err != nil {
		resp.Diagnostics.AddError("Cannot open D1 database "+m.Database.ValueString(), err.Error())
		return
	}
	defer db.Close()
	var diags diag.Diagnostics
	r.refresh(ctx, &m, mig, &diags)
	if diags.HasError() {
		if r.gone(ctx, m.Database.ValueString()) {
			resp.Diagnostics.AddWarning("D1 database "+m.Database.ValueString()+" is gone",
				"Its namespace no longer exists on the libSQL server; the migrations are removed from the state and will be applied again to the database created in its place.")
			resp.State.RemoveResource(ctx)
			return
		}
		resp.Diagnostics.Append(diags...)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// gone reports whether the provider's admin API says the namespace name
// does not exist; false when it cannot tell.
func (r *d1MigrationsResource) gone(ctx context.Context, name string) bool {
	if r.data == nil {
		return false
	}
	c, err := r.data.libsql.adminClient()
	if err != nil {
		return false
	}
	ok, err := c.Exists(ctx, name)
	return err == nil && !ok
}

// Delete forgets the resource: the database keeps its schema and its
// tracking table.
func (r *d1MigrationsResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {
}
