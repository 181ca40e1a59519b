package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/provider/internal/nsadmin"
	"github.com/dwk/fleet/provider/internal/validators"
)

// databaseResource is dwk_database: one libSQL database, an sqld namespace
// created and deleted through the admin API.
type databaseResource struct {
	data *providerData
}

var (
	_ resource.Resource                = (*databaseResource)(nil)
	_ resource.ResourceWithConfigure   = (*databaseResource)(nil)
	_ resource.ResourceWithImportState = (*databaseResource)(nil)
)

// NewDatabaseResource returns dwk_database.
func NewDatabaseResource() resource.Resource { return &databaseResource{} }

// databaseModel is dwk_database's schema data.
type databaseModel struct {
	ID          types.String         `tfsdk:"id"`
	Name        types.String         `tfsdk:"name"`
	BlockReads  types.Bool           `tfsdk:"block_reads"`
	BlockWrites types.Bool           `tfsdk:"block_writes"`
	BlockReason types.String         `tfsdk:"block_reason"`
	Protected   types.Bool           `tfsdk:"deletion_protection"`
	LibSQL      *databaseLibSQLModel `tfsdk:"libsql"`
}

// databaseLibSQLModel overrides the provider's admin API connection.
type databaseLibSQLModel struct {
	AdminURL   types.String `tfsdk:"admin_url"`
	AdminToken types.String `tfsdk:"admin_token"`
}

func (r *databaseResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_database"
}

func (r *databaseResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A libSQL database: a namespace on sqld or `dwk libsql`, created and deleted through the admin API " +
			"(`POST /v1/namespaces/{name}/create`, `DELETE /v1/namespaces/{name}`). Deleting the resource deletes the database " +
			"and its data, unless `deletion_protection` is set. Import an existing database by name: `terraform import dwk_database.x NAME`, " +
			"or `NAME@ADMIN_URL` for one on another server than the provider's (the admin key comes from the provider).",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The database name.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "Namespace name: 1-63 characters of `a-z`, `0-9`, `-` and `_`, not starting with `-`. Changing it replaces the database (its data is not moved).",
				Required:            true,
				Validators:          []validator.String{validators.NamespaceName()},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"block_reads": schema.BoolAttribute{
				MarkdownDescription: "Refuse every statement (sqld's `block_reads`). Default: `false`.",
				Optional:            true, Computed: true, Default: booldefault.StaticBool(false),
			},
			"block_writes": schema.BoolAttribute{
				MarkdownDescription: "Refuse statements that write (sqld's `block_writes`), e.g. during a migration. Default: `false`.",
				Optional:            true, Computed: true, Default: booldefault.StaticBool(false),
			},
			"block_reason": schema.StringAttribute{
				MarkdownDescription: "Message added to the errors of blocked statements.",
				Optional:            true,
			},
			"deletion_protection": deletionProtectionAttr("the database and its data"),
			"libsql": schema.SingleNestedAttribute{
				MarkdownDescription: "Overrides the provider's libSQL admin connection for this database.",
				Optional:            true,
				Attributes: map[string]schema.Attribute{
					"admin_url": schema.StringAttribute{
						MarkdownDescription: "Admin API URL. Default: the provider's `libsql.admin_url`.",
						Optional:            true,
						Validators:          []validator.String{validators.URL("http", "https")},
					},
					"admin_token": schema.StringAttribute{
						MarkdownDescription: "Admin API key. Default: the provider's `libsql.admin_token`.",
						Optional:            true, Sensitive: true,
					},
				},
			},
		},
	}
}

func (r *databaseResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData)
}

// client returns the admin API client for m.
func (r *databaseResource) client(m *databaseModel) (*nsadmin.Client, error) {
	var conn libsqlConn
	if r.data != nil {
		conn = r.data.libsql
	}
	if m.LibSQL != nil {
		conn = conn.with(&libsqlModel{AdminURL: m.LibSQL.AdminURL, AdminToken: m.LibSQL.AdminToken})
	}
	return conn.adminClient()
}

// begin opens every CRUD method: the model decoded from src (the plan or
// the state) and a client of its admin API. ok is false when either
// failed; diags says why.
func (r *databaseResource) begin(ctx context.Context, src getter, diags *diag.Diagnostics) (m databaseModel, c *nsadmin.Client, ok bool) {
	if m, ok = decode[databaseModel](ctx, src, diags); !ok {
		return m, nil, false
	}
	c, err := r.client(&m)
	if err != nil {
		diags.AddError("No libSQL admin API", err.Error())
		return m, nil, false
	}
	return m, c, true
}

func (m *databaseModel) block() nsadmin.Block {
	b := nsadmin.Block{BlockReads: boolValue(m.BlockReads), BlockWrites: boolValue(m.BlockWrites)}
	if !m.BlockReason.IsNull() && !m.BlockReason.IsUnknown() {
		s := m.BlockReason.ValueString()
		b.BlockReason = &s
	}
	return b
}

func (r *databaseResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	m, c, ok := r.begin(ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	name := m.Name.ValueString()
	exists, err := c.Exists(ctx, name)
	if err != nil {
		resp.Diagnostics.AddError("Cannot create database "+name, adminDetail(err))
		return
	}
	if exists {
		resp.Diagnostics.AddError("Database "+name+" already exists",
			fmt.Sprintf("A namespace named %q exists already. Manage it with `terraform import dwk_database.<name> %s`, or choose another name.", name, name))
		return
	}
	if err := c.Create(ctx, name); err != nil {
		resp.Diagnostics.AddError("Cannot create database "+name, adminDetail(err))
		return
	}
	if b := m.block(); b.BlockReads || b.BlockWrites || b.BlockReason != nil {
		if err := c.SetConfig(ctx, name, b); err != nil {
			resp.Diagnostics.AddError("Database "+name+" created, but its configuration was not set", adminDetail(err))
		}
	}
	m.ID = m.Name
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *databaseResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	m, c, ok := r.begin(ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	name := m.Name.ValueString()
	cfg, err := c.Config(ctx, name)
	if errors.Is(err, libsqladmin.ErrNotFound) {
		resp.Diagnostics.AddWarning("Database "+name+" is gone", "The namespace no longer exists on the libSQL server; it is removed from the state and will be created again on the next apply.")
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot read database "+name, adminDetail(err))
		return
	}
	m.ID = m.Name
	m.BlockReads = types.BoolValue(cfg.BlockReads)
	m.BlockWrites = types.BoolValue(cfg.BlockWrites)
	m.BlockReason = types.StringNull()
	if cfg.BlockReason != nil && *cfg.BlockReason != "" {
		m.BlockReason = types.StringValue(*cfg.BlockReason)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *databaseResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	m, c, ok := r.begin(ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	name := m.Name.ValueString()
	if err := c.SetConfig(ctx, name, m.block()); err != nil {
		resp.Diagnostics.AddError("Cannot update database "+name, adminDetail(err))
		return
	}
	m.ID = m.Name
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *databaseResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	m, c, ok := r.begin(ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	name := m.Name.ValueString()
	if refuseDeletion(m.Protected, "dwk_database", name, &resp.Diagnostics) {
		return
	}
	if err := c.Delete(ctx, name); err != nil && !errors.Is(err, libsqladmin.ErrNotFound) {
		resp.Diagnostics.AddError("Cannot delete database "+name, adminDetail(err))
	}
}

// ImportState takes NAME, or NAME@ADMIN_URL for a database on another
// server than the provider's (the admin key then comes from the
// provider's libsql or DWK_LIBSQL_ADMIN_TOKEN).
func (r *databaseResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id, err := parseImportID(req.ID)
	if err != nil {
		resp.Diagnostics.AddError("Invalid import id", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), id.Name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id.Name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("deletion_protection"), false)...)
	if id.URL != "" {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("libsql"),
			&databaseLibSQLModel{AdminURL: types.StringValue(id.URL), AdminToken: types.StringNull()})...)
	}
}

// adminDetail explains an admin API error with a hint for the usual causes.
func adminDetail(err error) string {
	switch {
	case errors.Is(err, libsqladmin.ErrUnauthorized):
		return err.Error() + "\n\nCheck libsql.admin_token (sqld's --admin-auth-key)."
	case errors.Is(err, libsqladmin.ErrUnavailable):
		return err.Error() + "\n\nCheck libsql.admin_url: it is sqld's --admin-listen-addr (or dwk libsql's), not the Hrana URL."
	}
	return err.Error()
}
