// Package provider is the dwk Terraform provider (type name "dwk"), built on
// terraform-plugin-framework. It manages the central stores of a dwk fleet —
// libSQL databases (dwk_database) and S3 buckets (dwk_bucket) — and deploys
// and rolls the dwk replicas themselves over SSH or on the local machine
// (dwk_fleet). dwk_fleet_status reads a fleet's members; the object_id
// function computes Durable Object ids, and coord_database,
// queues_database and d1_database name a fleet's databases.
//
// Every resource lives in its own file with its acceptance test beside it,
// and Resources, DataSources and Functions list them all. A CRUD method
// opens with its resource's begin (decode.go's decode, plus the client
// the resource works through); validators and plan modifiers live in internal/validators and
// internal/planmodifiers, the deployer in internal/deploy and the SSH
// transport in internal/sshtarget.
package provider

import (
	"context"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/provider/internal/defaults"
	"github.com/dwk/fleet/provider/internal/validators"
)

// TypeName is the provider's type name in Terraform configurations.
const TypeName = "dwk"

// Address is the provider's registry address.
const Address = "registry.terraform.io/dwk/dwk"

// dwkProvider is the provider.
type dwkProvider struct {
	version string
}

var (
	_ provider.Provider              = (*dwkProvider)(nil)
	_ provider.ProviderWithFunctions = (*dwkProvider)(nil)
)

// New returns a constructor of the provider, for providerserver.Serve and
// for tests' ProtoV6ProviderFactories.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &dwkProvider{version: version} }
}

// providerModel is the provider block.
type providerModel struct {
	LibSQL *libsqlModel `tfsdk:"libsql"`
	S3     *s3Model     `tfsdk:"s3"`
	SSH    *sshModel    `tfsdk:"ssh"`
	// Progress is where rollouts report each host's steps.
	Progress types.String `tfsdk:"progress"`
}

// providerData is what resources and data sources get from Configure: the
// default connections, with the environment applied.
type providerData struct {
	libsql libsqlConn
	s3     s3Conn
	ssh    sshDefaults
	// progress shows dwk_fleet rollouts as they go.
	progress *progress
}

func (p *dwkProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = TypeName
	resp.Version = p.version
}

func (p *dwkProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The dwk provider creates the central stores of a dwk fleet (libSQL databases, S3 buckets) " +
			"and deploys and rolls the `dwk` replicas over SSH or on the local machine.\n\n" +
			"The `libsql` and `s3` connections are defaults: resources may override them. Every setting may also come from " +
			"the environment: `DWK_LIBSQL_URL`, `DWK_LIBSQL_ADMIN_URL`, `DWK_LIBSQL_AUTH_TOKEN`, `DWK_LIBSQL_ADMIN_TOKEN`, " +
			"`DWK_S3_ENDPOINT`, `DWK_S3_REGION`, `DWK_S3_ACCESS_KEY`, `DWK_S3_SECRET_KEY`, `DWK_S3_PATH_STYLE`; " +
			"the configuration wins over the environment. Without S3 keys the AWS SDK's default credentials are used.",
		Attributes: map[string]schema.Attribute{
			"libsql": schema.SingleNestedAttribute{
				MarkdownDescription: "Default libSQL server (sqld, Turso or `dwk libsql`).",
				Optional:            true,
				Attributes: map[string]schema.Attribute{
					"url": schema.StringAttribute{
						MarkdownDescription: "Hrana URL (`http(s)://`, `ws(s)://` or `libsql://`). Environment: `DWK_LIBSQL_URL`.",
						Optional:            true,
						Validators:          []validator.String{validators.URL("http", "https", "ws", "wss", "libsql")},
					},
					"admin_url": schema.StringAttribute{
						MarkdownDescription: "sqld admin API URL (`--admin-listen-addr`), used to create and delete databases. Environment: `DWK_LIBSQL_ADMIN_URL`.",
						Optional:            true,
						Validators:          []validator.String{validators.URL("http", "https")},
					},
					"auth_token": schema.StringAttribute{
						MarkdownDescription: "JWT sent to `url`. Environment: `DWK_LIBSQL_AUTH_TOKEN`.",
						Optional:            true, Sensitive: true,
					},
					"admin_token": schema.StringAttribute{
						MarkdownDescription: "Key sent to `admin_url` (sqld's `--admin-auth-key`). Environment: `DWK_LIBSQL_ADMIN_TOKEN`.",
						Optional:            true, Sensitive: true,
					},
					"ca_file": schema.StringAttribute{
						MarkdownDescription: "PEM file of the CA certificate(s) an `https://` or `wss://` libSQL server is checked against, " +
							"for a server whose CA the system does not trust (`dwk libsql --tls-cert-file`). `dwk_fleet` copies it to its hosts. " +
							"Default: the system's roots. Environment: `DWK_LIBSQL_CA_FILE`.",
						Optional: true,
					},
				},
			},
			"ssh": sshSchema(),
			"progress": schema.StringAttribute{
				MarkdownDescription: "Where `dwk_fleet` shows each host's rollout steps (staging, drain, start, ready, healthy, revert) as they " +
					"happen, one line each: `\"auto\"` (the terminal Terraform runs in, when there is one), `\"off\"`, or a file path to append " +
					"to. The same steps are logged at INFO (`TF_LOG=INFO`). Default: `\"auto\"`. Environment: `DWK_PROGRESS`.",
				Optional: true,
			},
			"s3": schema.SingleNestedAttribute{
				MarkdownDescription: "Default S3-compatible object store (AWS S3, R2, MinIO, versitygw, ...).",
				Optional:            true,
				Attributes: map[string]schema.Attribute{
					"endpoint": schema.StringAttribute{
						MarkdownDescription: "Endpoint URL; unset means AWS's regional endpoint. Environment: `DWK_S3_ENDPOINT`.",
						Optional:            true,
						Validators:          []validator.String{validators.URL("http", "https")},
					},
					"region": schema.StringAttribute{
						MarkdownDescription: "Region. Default: `" + defaults.S3Region + "`. Environment: `DWK_S3_REGION`.",
						Optional:            true,
					},
					"access_key": schema.StringAttribute{
						MarkdownDescription: "Access key id. Environment: `DWK_S3_ACCESS_KEY`.",
						Optional:            true,
					},
					"secret_key": schema.StringAttribute{
						MarkdownDescription: "Secret access key. Environment: `DWK_S3_SECRET_KEY`.",
						Optional:            true, Sensitive: true,
					},
					"path_style": schema.BoolAttribute{
						MarkdownDescription: "Address buckets in the URL path instead of the host name (most self-hosted servers need it). Default: `false`. Environment: `DWK_S3_PATH_STYLE`.",
						Optional:            true,
					},
				},
			},
		},
	}
}

func (p *dwkProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	data := &providerData{libsql: libsqlFromEnv().with(m.LibSQL), s3: s3FromEnv().with(m.S3), ssh: sshFromEnv().with(m.SSH)}
	prog, err := openProgress(pick(m.Progress, os.Getenv(EnvProgress)))
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("progress"), "Cannot open the progress file", err.Error())
		return
	}
	data.progress = prog
	resp.ResourceData = data
	resp.DataSourceData = data
}

// Resources lists the provider's resources, one file each.
func (p *dwkProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewBucketResource,
		NewD1MigrationsResource,
		NewDatabaseResource,
		NewFleetResource,
		NewLibSQLServerResource,
		NewModeMarkerResource,
	}
}

// DataSources lists the provider's data sources, one file each.
func (p *dwkProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewFleetStatusDataSource,
		NewWranglerConfigDataSource,
	}
}

// Functions lists the provider's functions.
func (p *dwkProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{
		NewCoordDatabaseFunction,
		NewD1DatabaseFunction,
		NewObjectIDFunction,
		NewQueuesDatabaseFunction,
	}
}

// configuredData extracts providerData from a Configure request's
// ProviderData; nil before the provider is configured.
func configuredData(v any) *providerData {
	d, _ := v.(*providerData)
	return d
}

// boolValue is a Bool's value, false when null or unknown.
func boolValue(b types.Bool) bool { return !b.IsNull() && !b.IsUnknown() && b.ValueBool() }
