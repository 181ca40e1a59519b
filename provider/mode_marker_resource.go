package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/appliance/central"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/marker"
	"github.com/dwk/fleet/appliance/fleet/markerstore"
	"github.com/dwk/fleet/appliance/fleet/namespaces"
	"github.com/dwk/fleet/appliance/process/buildinfo"
	"github.com/dwk/fleet/provider/internal/validators"
)

// markerInSync is the status of a marker whose two copies are the ones
// Terraform wrote.
const markerInSync = "in_sync"

// markerStoreTimeout bounds every call to the central stores.
const markerStoreTimeout = 30 * time.Second

// modeMarkerResource is dwk_mode_marker: the mode marker of one fleet in
// its coordination database and its bucket, written and read through
// appliance/fleet/markerstore, the package the replicas' start-up probes
// read it with.
type modeMarkerResource struct {
	data *providerData
}

var (
	_ resource.Resource                = (*modeMarkerResource)(nil)
	_ resource.ResourceWithConfigure   = (*modeMarkerResource)(nil)
	_ resource.ResourceWithImportState = (*modeMarkerResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*modeMarkerResource)(nil)
)

// NewModeMarkerResource returns dwk_mode_marker.
func NewModeMarkerResource() resource.Resource { return &modeMarkerResource{} }

// modeMarkerModel is dwk_mode_marker's schema data.
type modeMarkerModel struct {
	ID        types.String       `tfsdk:"id"`
	Fleet     types.String       `tfsdk:"fleet"`
	Bucket    types.String       `tfsdk:"bucket"`
	Schema    types.Int64        `tfsdk:"schema"`
	Database  types.String       `tfsdk:"database"`
	MarkerID  types.String       `tfsdk:"marker_id"`
	Created   types.String       `tfsdk:"created"`
	CreatedBy types.String       `tfsdk:"created_by"`
	Status    types.String       `tfsdk:"status"`
	LibSQL    *markerLibSQLModel `tfsdk:"libsql"`
	S3        *s3Model           `tfsdk:"s3"`
}

// markerLibSQLModel overrides the provider's Hrana connection.
type markerLibSQLModel struct {
	URL       types.String `tfsdk:"url"`
	AuthToken types.String `tfsdk:"auth_token"`
}

func (r *modeMarkerResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_mode_marker"
}

func (r *modeMarkerResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Computed: true}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The mode marker of a central-mode fleet: the record saying \"these stores belong to fleet X in central " +
			"mode, schema N\". It is written twice, with one random id: under the key `(\"mode\")` of the fleet's coordination database " +
			"(the libSQL namespace `dwk-coord-<fleet>`, which must exist: create it with `dwk_database`) and as the object " +
			"`dwk/marker.json` in the fleet's bucket (which must exist: `dwk_bucket`). Every central-mode replica checks both copies " +
			"before it serves and refuses to start without them.\n\n" +
			"**Read** reads both copies: when both are gone the marker is created again; when one is missing, unreadable or from another " +
			"provisioning, `status` says so and the next apply rewrites both. **Delete** removes both copies (the coordination copy " +
			"first), after which no replica of the fleet starts. Creating a marker where the coordination database already holds one, " +
			"or where the bucket holds another fleet's, fails: two fleets never share stores.\n\n" +
			"Import by fleet name, or `FLEET/BUCKET` to read the bucket copy too: `terraform import dwk_mode_marker.x prod/prod-fleet`.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The fleet name.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"fleet": schema.StringAttribute{
				MarkdownDescription: "Fleet name (the replicas' `fleet.name`): 1-63 characters of `a-z`, `0-9` and `-`. Changing it replaces the marker.",
				Required:            true,
				Validators:          []validator.String{validators.FleetName()},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"bucket": schema.StringAttribute{
				MarkdownDescription: "The fleet's bucket (the replicas' `storage.s3.bucket`). Changing it moves the bucket copy: it is " +
					"written to the new bucket and deleted from the old one (the fleet's blobs are not moved).",
				Required:   true,
				Validators: []validator.String{validators.BucketName()},
			},
			"schema": schema.Int64Attribute{
				MarkdownDescription: "Layout version of the central stores; replicas built for an older schema refuse to start. " +
					"Default: the newest schema of this provider's dwk (`" + itoa(buildinfo.SchemaVersion) + "`). Changing it rewrites both copies.",
				Optional: true, Computed: true, Default: int64default.StaticInt64(buildinfo.SchemaVersion),
				Validators: []validator.Int64{int64validator.AtLeast(1)},
			},
			"database":   computed("The coordination database (libSQL namespace) holding the marker: `dwk-coord-<fleet>`, shortened with a hash past 63 characters."),
			"marker_id":  computed("Random id both copies carry; replicas refuse copies whose ids differ."),
			"created":    computed("When the marker was written (RFC 3339, UTC)."),
			"created_by": computed("The tool that wrote it, e.g. `terraform-provider-dwk v1.0.0`."),
			"status": computed("`\"in_sync\"` when both copies are the ones Terraform wrote; otherwise what `Read` found wrong " +
				"(a missing, unreadable or foreign copy), which the next apply repairs."),
			"libsql": schema.SingleNestedAttribute{
				MarkdownDescription: "Overrides the provider's libSQL connection (its Hrana `url` and `auth_token`) for this marker.",
				Optional:            true,
				Attributes: map[string]schema.Attribute{
					"url": schema.StringAttribute{
						MarkdownDescription: "Hrana URL. Default: the provider's `libsql.url`.",
						Optional:            true,
						Validators:          []validator.String{validators.URL("http", "https", "ws", "wss", "libsql")},
					},
					"auth_token": schema.StringAttribute{
						MarkdownDescription: "JWT sent to `url`. Default: the provider's `libsql.auth_token`.",
						Optional:            true, Sensitive: true,
					},
				},
			},
			"s3": schema.SingleNestedAttribute{
				MarkdownDescription: "Overrides the provider's S3 connection for this marker; unset fields keep the provider's values.",
				Optional:            true,
				Attributes: map[string]schema.Attribute{
					"endpoint": schema.StringAttribute{
						MarkdownDescription: "Endpoint URL.",
						Optional:            true,
						Validators:          []validator.String{validators.URL("http", "https")},
					},
					"region":     schema.StringAttribute{MarkdownDescription: "Region.", Optional: true},
					"access_key": schema.StringAttribute{MarkdownDescription: "Access key id.", Optional: true},
					"secret_key": schema.StringAttribute{MarkdownDescription: "Secret access key.", Optional: true, Sensitive: true},
					"path_style": schema.BoolAttribute{MarkdownDescription: "Path-style addressing.", Optional: true},
				},
			},
		},
	}
}

func (r *modeMarkerResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData)
}

// markerStores is an open connection to both stores of one marker.
type markerStores struct {
	fleet, bucket string
	clients       *central.Clients
	// coord is nil when the coordination database does not exist.
	coord *coord.Store
	s3    markerstore.S3API
	where string // the libSQL URL and namespace, for messages
}

func (s *markerStores) close() {
	if s.coord != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.coord.Close(ctx)
	}
	s.clients.Close()
}

// open connects to the stores of m. A missing coordination database is not
// an error (stores.coord is nil); an unreachable server is.
func (r *modeMarkerResource) open(ctx context.Context, m *modeMarkerModel) (*markerStores, error) {
	var lc libsqlConn
	var sc s3Conn
	if r.data != nil {
		lc, sc = r.data.libsql, r.data.s3
	}
	if m.LibSQL != nil {
		lc = lc.with(&libsqlModel{URL: m.LibSQL.URL, AuthToken: m.LibSQL.AuthToken})
	}
	sc = sc.with(m.S3)
	if lc.URL == "" {
		return nil, fmt.Errorf("no libSQL URL: set libsql.url on the resource or the provider, or %s", EnvLibSQLURL)
	}
	st := &markerStores{fleet: m.Fleet.ValueString(), bucket: m.Bucket.ValueString()}
	clients, err := central.Dial(ctx, storesConfig(st.fleet, st.bucket, lc, sc), central.Options{})
	if err != nil {
		return nil, err
	}
	st.clients, st.where = clients, fmt.Sprintf("namespace %s at %s", clients.Coord.Namespace(), lc.URL)
	if clients.S3 != nil {
		st.s3 = clients.S3
	}
	cs, err := coord.Open(ctx, clients.Coord, coord.Options{SweepInterval: -1})
	switch {
	case errors.Is(err, coord.ErrNoDatabase):
		return st, nil
	case err != nil:
		clients.Close()
		return nil, fmt.Errorf("open the coordination database (%s): %w", st.where, err)
	}
	st.coord = cs
	return st, nil
}

// storesConfig is the part of dwk.json that central.Dial builds a
// replica's clients from, for these connections. Without a bucket there
// is no storage.s3 and no S3 client: the bucket copy is not read.
func storesConfig(fleet, bucket string, lc libsqlConn, sc s3Conn) *config.Config {
	cfg := &config.Config{Fleet: config.Fleet{Name: fleet}, Storage: config.Storage{
		Mode:   config.ModeCentral,
		LibSQL: &config.LibSQL{URL: lc.URL, AuthToken: config.Literal(lc.AuthToken), CAFile: lc.CAFile},
	}}
	if bucket != "" {
		cfg.Storage.S3 = &config.S3{
			Endpoint: sc.Endpoint, Region: sc.Region, Bucket: bucket, PathStyle: sc.PathStyle,
			AccessKey: config.Literal(sc.AccessKey), SecretKey: config.Literal(sc.SecretKey),
		}
	}
	return cfg
}

// read returns both copies. A missing database or bucket reads as a
// missing copy; an empty bucket name skips the bucket.
func (s *markerStores) read(ctx context.Context) (markerstore.Copies, error) {
	var out markerstore.Copies
	var err error
	if s.coord != nil {
		if out.Coord, err = markerstore.CopyOf(markerstore.ReadCoord(ctx, s.coord)); err != nil {
			return out, fmt.Errorf("read the coordination copy (%s): %w", s.where, err)
		}
	}
	if s.bucket != "" {
		if out.Bucket, err = markerstore.CopyOf(markerstore.ReadBucket(ctx, s.s3, s.bucket)); err != nil {
			return out, fmt.Errorf("read the bucket copy: %w", err)
		}
	}
	return out, nil
}

// foreign returns an error when a copy belongs to another fleet: writing
// over it would hand that fleet's stores to this one.
func (s *markerStores) foreign(c markerstore.Copies) error {
	for _, cp := range []struct {
		where string
		c     markerstore.Copy
	}{{"coordination database " + s.where, c.Coord}, {"bucket " + s.bucket, c.Bucket}} {
		if cp.c.Status == markerstore.Present && cp.c.Marker.Fleet != s.fleet {
			return fmt.Errorf("the %s holds the mode marker of fleet %q, not %q: two fleets must not share stores; "+
				"give fleet %q its own bucket and database", cp.where, cp.c.Marker.Fleet, s.fleet, s.fleet)
		}
	}
	return nil
}

// write writes m into both stores. The coordination database must exist.
func (s *markerStores) write(ctx context.Context, m marker.Marker) error {
	if s.coord == nil {
		return fmt.Errorf("the coordination database does not exist (%s): create it with dwk_database (name = %q) and make this "+
			"marker depend on it", s.where, namespaces.Coord(s.fleet))
	}
	return markerstore.Write(ctx, s.coord, s.s3, s.bucket, m)
}

// status describes copies against the marker id Terraform wrote.
func status(c markerstore.Copies, id string, checkBucket bool) string {
	var problems []string
	describe := func(name string, cp markerstore.Copy) {
		switch cp.Status {
		case markerstore.Missing:
			problems = append(problems, name+" copy missing")
		case markerstore.NoBucket:
			problems = append(problems, "bucket missing")
		case markerstore.Corrupt:
			problems = append(problems, name+" copy unreadable")
		case markerstore.Present:
			if cp.Marker.ID != id {
				problems = append(problems, fmt.Sprintf("%s copy from another provisioning (id %s)", name, cp.Marker.ID))
			} else if cp.Marker.Mode != marker.Mode {
				problems = append(problems, fmt.Sprintf("%s copy names mode %q", name, cp.Marker.Mode))
			}
		}
	}
	describe("coordination", c.Coord)
	if checkBucket {
		describe("bucket", c.Bucket)
	} else {
		problems = append(problems, "bucket copy not checked (no bucket in the state)")
	}
	if len(problems) == 0 {
		return markerInSync
	}
	return strings.Join(problems, "; ")
}

// storeContext bounds one operation's calls to the stores.
func storeContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, markerStoreTimeout)
}

// begin opens every CRUD method: the model decoded from src (the plan or
// the state) and its stores, open. ok is false when either failed; diags
// says why. The caller closes st, and bounds ctx with storeContext first.
func (r *modeMarkerResource) begin(ctx context.Context, src getter, diags *diag.Diagnostics) (m modeMarkerModel, st *markerStores, ok bool) {
	if m, ok = decode[modeMarkerModel](ctx, src, diags); !ok {
		return m, nil, false
	}
	st, err := r.open(ctx, &m)
	if err != nil {
		diags.AddError("Cannot reach the stores of fleet "+m.Fleet.ValueString(), err.Error())
		return m, nil, false
	}
	return m, st, true
}

// readForWrite reads both copies before Create or Update writes them: ok
// is false when they cannot be read or belong to another fleet.
func (s *markerStores) readForWrite(ctx context.Context, diags *diag.Diagnostics) (c markerstore.Copies, ok bool) {
	c, err := s.read(ctx)
	if err != nil {
		diags.AddError("Cannot read the stores of fleet "+s.fleet, err.Error())
		return c, false
	}
	if err := s.foreign(c); err != nil {
		diags.AddError("The stores belong to another fleet", err.Error())
		return c, false
	}
	return c, true
}

// ModifyPlan fills what the plan can know: the coordination database's
// name, the marker's id and times (kept across updates, unknown on
// create), and the status every apply leaves: in sync.
func (r *modeMarkerResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan modeMarkerModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	plan.ID, plan.Database = types.StringUnknown(), types.StringUnknown()
	if !plan.Fleet.IsUnknown() {
		plan.ID = plan.Fleet
		plan.Database = types.StringValue(namespaces.Coord(plan.Fleet.ValueString()))
	}
	plan.MarkerID, plan.Created, plan.CreatedBy = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
	plan.Status = types.StringValue(markerInSync)
	if !req.State.Raw.IsNull() {
		var state modeMarkerModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		if state.Fleet.Equal(plan.Fleet) {
			plan.MarkerID, plan.Created, plan.CreatedBy = state.MarkerID, state.Created, state.CreatedBy
		}
		if !plan.Schema.IsUnknown() && !state.Schema.IsNull() && plan.Schema.ValueInt64() < state.Schema.ValueInt64() {
			resp.Diagnostics.AddAttributeWarning(path.Root("schema"), "Lowering the stores' schema",
				fmt.Sprintf("The marker is at schema %d and the plan lowers it to %d: replicas built for schema %d will start on stores "+
					"another dwk may have laid out for schema %d. Only do this to roll back a schema change that never ran.",
					state.Schema.ValueInt64(), plan.Schema.ValueInt64(), plan.Schema.ValueInt64(), state.Schema.ValueInt64()))
		}
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

func (r *modeMarkerResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	ctx, cancel := storeContext(ctx)
	defer cancel()
	m, st, ok := r.begin(ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	defer st.close()
	copies, ok := st.readForWrite(ctx, &resp.Diagnostics)
	if !ok {
		return
	}
	fleet := st.fleet
	if copies.Coord.Status == markerstore.Present {
		resp.Diagnostics.AddError("Fleet "+fleet+" already has a mode marker",
			fmt.Sprintf("The coordination database (%s) holds a mode marker (id %s, created %s). Manage it with "+
				"`terraform import dwk_mode_marker.<name> %s/%s`, or delete it first.",
				st.where, copies.Coord.Marker.ID, copies.Coord.Marker.Created.Format(time.RFC3339), fleet, st.bucket))
		return
	}
	mk := marker.New(fleet, int(m.Schema.ValueInt64()), "terraform-provider-dwk "+buildinfo.Version())
	if err := st.write(ctx, mk); err != nil {
		resp.Diagnostics.AddError("Cannot write the mode marker of fleet "+fleet, err.Error())
		return
	}
	m.fill(mk)
	m.Status = types.StringValue(markerInSync)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// fill records a written marker.
func (m *modeMarkerModel) fill(mk marker.Marker) {
	m.ID = types.StringValue(mk.Fleet)
	m.Database = types.StringValue(namespaces.Coord(mk.Fleet))
	m.Schema = types.Int64Value(int64(mk.Schema))
	m.MarkerID = types.StringValue(mk.ID)
	m.Created = types.StringValue(mk.Created.UTC().Format(time.RFC3339))
	m.CreatedBy = types.StringValue(mk.CreatedBy)
}

func (r *modeMarkerResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	ctx, cancel := storeContext(ctx)
	defer cancel()
	m, st, ok := r.begin(ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	defer st.close()
	fleet := st.fleet
	copies, err := st.read(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the mode marker of fleet "+fleet, err.Error())
		return
	}
	checkBucket := st.bucket != ""
	present := copies.Coord.Status == markerstore.Present || copies.Bucket.Status == markerstore.Present
	if !present {
		resp.Diagnostics.AddWarning("The mode marker of fleet "+fleet+" is gone",
			"Neither the coordination database nor the bucket holds it; it is removed from the state and written again on the next apply.")
		resp.State.RemoveResource(ctx)
		return
	}
	if m.MarkerID.IsNull() || m.MarkerID.ValueString() == "" {
		// Just imported: adopt what the stores hold, the coordination copy first.
		src := copies.Coord
		if src.Status != markerstore.Present {
			src = copies.Bucket
		}
		m.fill(src.Marker)
	} else if copies.Coord.Status == markerstore.Present && copies.Coord.Marker.ID == m.MarkerID.ValueString() {
		m.Schema = types.Int64Value(int64(copies.Coord.Marker.Schema))
	}
	m.ID = m.Fleet
	m.Database = types.StringValue(namespaces.Coord(fleet))
	m.Status = types.StringValue(status(copies, m.MarkerID.ValueString(), checkBucket))
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// Update rewrites both copies with the id in the state, the planned schema
// and the planned bucket, and removes the copy from a bucket no longer
// used.
func (r *modeMarkerResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	state, ok := decode[modeMarkerModel](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	ctx, cancel := storeContext(ctx)
	defer cancel()
	plan, st, ok := r.begin(ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	defer st.close()
	if _, ok := st.readForWrite(ctx, &resp.Diagnostics); !ok {
		return
	}
	fleet := st.fleet
	mk := marker.Marker{Fleet: fleet, Mode: marker.Mode, Schema: int(plan.Schema.ValueInt64()), ID: state.MarkerID.ValueString(), CreatedBy: state.CreatedBy.ValueString()}
	var err error
	if mk.Created, err = time.Parse(time.RFC3339, state.Created.ValueString()); err != nil || mk.ID == "" {
		mk = marker.New(fleet, mk.Schema, "terraform-provider-dwk "+buildinfo.Version())
	}
	if err := st.write(ctx, mk); err != nil {
		resp.Diagnostics.AddError("Cannot write the mode marker of fleet "+fleet, err.Error())
		return
	}
	if old := state.Bucket.ValueString(); old != "" && old != st.bucket {
		if err := r.deleteBucketCopy(ctx, &state, old, mk.ID); err != nil {
			resp.Diagnostics.AddWarning("The old bucket still holds the marker",
				fmt.Sprintf("The marker moved to bucket %s, but its copy in bucket %s could not be deleted: %v", st.bucket, old, err))
		}
	}
	plan.fill(mk)
	plan.Status = types.StringValue(markerInSync)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// deleteBucketCopy deletes the marker object from bucket when it is the
// one this resource wrote.
func (r *modeMarkerResource) deleteBucketCopy(ctx context.Context, state *modeMarkerModel, bucket, id string) error {
	old := *state
	old.Bucket = types.StringValue(bucket)
	st, err := r.open(ctx, &old)
	if err != nil {
		return err
	}
	defer st.close()
	m, err := markerstore.ReadBucket(ctx, st.s3, bucket)
	if err != nil || m.ID != id {
		return nil // gone, unreadable or someone else's: leave it
	}
	return markerstore.DeleteBucket(ctx, st.s3, bucket)
}

func (r *modeMarkerResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	ctx, cancel := storeContext(ctx)
	defer cancel()
	_, st, ok := r.begin(ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	defer st.close()
	fleet := st.fleet
	if st.coord != nil {
		if err := markerstore.DeleteCoord(ctx, st.coord); err != nil {
			resp.Diagnostics.AddError("Cannot delete the mode marker of fleet "+fleet, err.Error())
			return
		}
	}
	if st.bucket != "" {
		if err := markerstore.DeleteBucket(ctx, st.s3, st.bucket); err != nil {
			resp.Diagnostics.AddError("Cannot delete the mode marker of fleet "+fleet,
				"The coordination copy is deleted, the bucket copy is not: "+err.Error())
		}
	}
}

// ImportState takes "FLEET" or "FLEET/BUCKET".
func (r *modeMarkerResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	fleet, bucket, _ := strings.Cut(req.ID, "/")
	if fleet == "" || strings.Contains(bucket, "/") {
		resp.Diagnostics.AddError("Invalid import id",
			fmt.Sprintf("Import a mode marker by fleet name or as FLEET/BUCKET, e.g. `prod/prod-fleet`; got %q.", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("fleet"), fleet)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), fleet)...)
	if bucket != "" {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("bucket"), bucket)...)
	}
}
