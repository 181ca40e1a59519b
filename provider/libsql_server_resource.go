package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/provider/internal/defaults"
	"github.com/dwk/fleet/provider/internal/deploy"
	"github.com/dwk/fleet/provider/internal/planmodifiers"
	"github.com/dwk/fleet/provider/internal/validators"
)

// libsqlServerResource is dwk_libsql_server: `dwk libsql` on one host,
// deployed over SSH by the same deployer as dwk_fleet's replicas. The
// spec (what the host gets) is in libsql_server_spec.go, the keys and
// tokens in libsql_server_keys.go, the CRUD methods in
// libsql_server_apply.go.
type libsqlServerResource struct {
	data *providerData
	// newDeployer makes the deployer of one operation.
	newDeployer func() *deploy.Deployer
	// now is the clock tokens are minted and renewed by.
	now func() time.Time
}

var (
	_ resource.Resource                   = (*libsqlServerResource)(nil)
	_ resource.ResourceWithConfigure      = (*libsqlServerResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*libsqlServerResource)(nil)
	_ resource.ResourceWithValidateConfig = (*libsqlServerResource)(nil)
	_ resource.ResourceWithImportState    = (*libsqlServerResource)(nil)
)

// NewLibSQLServerResource returns dwk_libsql_server.
func NewLibSQLServerResource() resource.Resource {
	return &libsqlServerResource{newDeployer: deploy.New, now: time.Now}
}

// libsqlServerModel is dwk_libsql_server's schema data.
type libsqlServerModel struct {
	ID              types.String       `tfsdk:"id"`
	Name            types.String       `tfsdk:"name"`
	Host            *sshHostModel      `tfsdk:"host"`
	Artifact        types.String       `tfsdk:"artifact"`
	ArtifactSHA256  types.String       `tfsdk:"artifact_sha256"`
	InstallDir      types.String       `tfsdk:"install_dir"`
	DataDir         types.String       `tfsdk:"data_dir"`
	Listen          types.String       `tfsdk:"listen"`
	AdminListen     types.String       `tfsdk:"admin_listen"`
	PublicHost      types.String       `tfsdk:"public_host"`
	TLSCertFile     types.String       `tfsdk:"tls_cert_file"`
	TLSKeyFile      types.String       `tfsdk:"tls_key_file"`
	JWTKeyVersion   types.String       `tfsdk:"jwt_key_version"`
	TokenLifetime   types.String       `tfsdk:"token_lifetime"`
	AdminKey        types.String       `tfsdk:"admin_key"`
	AdminKeyVersion types.String       `tfsdk:"admin_key_version"`
	Backup          *libsqlBackupModel `tfsdk:"backup"`
	Service         types.String       `tfsdk:"service"`
	ReadyTimeout    types.String       `tfsdk:"ready_timeout"`
	ForceDestroy    types.Bool         `tfsdk:"force_destroy"`
	Timeouts        timeouts.Value     `tfsdk:"timeouts"`
	URL             types.String       `tfsdk:"url"`
	AdminURL        types.String       `tfsdk:"admin_url"`
	JWTPublicKey    types.String       `tfsdk:"jwt_public_key"`
	AuthToken       types.String       `tfsdk:"auth_token"`
	ReadOnlyToken   types.String       `tfsdk:"read_only_token"`
	TokensExpire    types.String       `tfsdk:"tokens_expire"`
	AdminToken      types.String       `tfsdk:"admin_token"`
	ServiceManager  types.String       `tfsdk:"service_manager"`
	State           types.String       `tfsdk:"state"`
	ConfigHash      types.String       `tfsdk:"config_hash"`
}

// libsqlBackupModel is dwk_libsql_server's backup: the --backup-s3-*
// flags of dwk libsql.
type libsqlBackupModel struct {
	Bucket           types.String `tfsdk:"bucket"`
	Prefix           types.String `tfsdk:"prefix"`
	Endpoint         types.String `tfsdk:"endpoint"`
	Region           types.String `tfsdk:"region"`
	AccessKey        types.String `tfsdk:"access_key"`
	SecretKey        types.String `tfsdk:"secret_key"`
	PathStyle        types.Bool   `tfsdk:"path_style"`
	Lag              types.String `tfsdk:"lag"`
	SnapshotInterval types.String `tfsdk:"snapshot_interval"`
	Retention        types.String `tfsdk:"retention"`
}

func (r *libsqlServerResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_libsql_server"
}

func (r *libsqlServerResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData)
}

func computedString(desc string) schema.StringAttribute {
	return schema.StringAttribute{MarkdownDescription: desc, Computed: true}
}

func (r *libsqlServerResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The bundled libSQL server, `dwk libsql`, on one host reached over SSH: the central store of a fleet, " +
			"with JWT authentication, an admin key and, with `backup`, continuous backup to S3 (docs/backups.md).\n\n" +
			"**Create** uploads the binary to `<install_dir>/bin/dwk-<sha256[:12]>` (checked against its sha256), writes " +
			"`<install_dir>/libsql.json` (mode 0600: `dwk libsql --config`'s flags by name, with the admin key and the backup's secret " +
			"key) and the public JWT key and TLS files under `<install_dir>/pki/`, has the binary check them (`dwk libsql --check`), " +
			"starts the server — as the systemd unit `dwk-<name>.service` or, where the host has no systemd, as a `dwk supervise` " +
			"process, exactly as `dwk_fleet` runs replicas — and waits for `GET /health`.\n\n" +
			"**Keys.** Terraform generates an Ed25519 key pair, installs its public half (`--auth-jwt-key-file`) and signs two tokens with " +
			"the private half: `auth_token` (full access) and `read_only_token`. The private key is then dropped: it is in neither the " +
			"plan nor the state. Changing `jwt_key_version` makes a new pair and new tokens, and the server refuses the old ones; so " +
			"does changing `token_lifetime` (a shorter lifetime takes effect at once), and so does a plan within a quarter of " +
			"`token_lifetime` of `tokens_expire`, which renews them.\n\n" +
			"**Update** stages, stops the server (it finishes its requests and ships its backup), switches binary and config, starts it " +
			"and waits for `/health`. The data dir is untouched, so an upgrade of the binary loses nothing.\n\n" +
			"**Read** inspects the install directory and probes `/health` through SSH: a stopped server, an edited `libsql.json` or " +
			"another binary shows as a change of `state`, `config_hash` or `artifact_sha256` in `terraform plan`, and the next apply repairs it.\n\n" +
			"**Delete** stops the server and removes its service and everything installed, but keeps the data dir unless `force_destroy` is set.\n\n" +
			"**Import** with `ssh://USER@ADDRESS:PORT/INSTALL_DIR?host_key=KEY[&name=NAME]` (`KEY` URL-encoded, as `urlencode()` " +
			"gives it; `name` defaults to `\"libsql\"`): the settings are read back from the host's `libsql.json`. The tokens cannot be " +
			"(their key is gone): `auth_token` and `read_only_token` stay null until `jwt_key_version` changes.",
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
		},
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "`ssh://USER@ADDRESS:PORT/INSTALL_DIR`.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "Names the systemd unit (`dwk-<name>.service`) and the default install directory; it shares its " +
					"namespace with `dwk_fleet` names on the same host. Default: `\"" + defaults.LibSQLName + "\"`.",
				Optional: true, Computed: true, Default: stringdefault.StaticString(defaults.LibSQLName),
				Validators:    []validator.String{validators.FleetName()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"host": schema.SingleNestedAttribute{
				MarkdownDescription: "The host, reached over SSH. Changing `address` or `port` replaces the server (the old host keeps its data dir).",
				Required:            true,
				Attributes: sshHostAttributes(
					schema.StringAttribute{
						MarkdownDescription: "SSH host name or IP address.", Required: true,
						PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
					},
					schema.StringAttribute{
						MarkdownDescription: "The host's public SSH host key in authorized_keys format (`\"ssh-ed25519 AAAA...\"`, e.g. from " +
							"`ssh-keyscan -t ed25519 HOST`); the connection is refused when the host presents another.",
						Required: true,
					}),
			},
			"artifact": schema.StringAttribute{
				MarkdownDescription: "Path of the `dwk` binary to deploy, on the machine running Terraform. A new binary (by content, see " +
					"`artifact_sha256`) restarts the server on it; the data dir stays.",
				Required: true,
			},
			"artifact_sha256": schema.StringAttribute{
				MarkdownDescription: "The sha256 of `artifact`, read at plan time.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{planmodifiers.FileSHA256(path.Root("artifact"))},
			},
			"install_dir": schema.StringAttribute{
				MarkdownDescription: "Absolute directory holding the binary, config and keys on the host. Default: `\"" + defaults.InstallDir("<name>") + "\"`.",
				Optional:            true, Computed: true,
				Validators:    []validator.String{validators.AbsPath()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIfConfigured(), stringplanmodifier.UseStateForUnknown()},
			},
			"data_dir": schema.StringAttribute{
				MarkdownDescription: "Absolute directory of the databases (`--db-path`). Kept when the resource is destroyed, unless " +
					"`force_destroy`. Default: `\"<install_dir>/data\"`. Changing it replaces the server.",
				Optional: true, Computed: true,
				Validators:    []validator.String{validators.AbsPath()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIfConfigured(), stringplanmodifier.UseStateForUnknown()},
			},
			"listen": schema.StringAttribute{
				MarkdownDescription: "Listen address of the user API, Hrana over HTTP and WebSocket (`--http-listen-addr`). Default: `\"" + defaults.LibSQLListen + "\"`.",
				Optional:            true, Computed: true, Default: stringdefault.StaticString(defaults.LibSQLListen),
				Validators: []validator.String{validators.ListenAddress()},
			},
			"admin_listen": schema.StringAttribute{
				MarkdownDescription: "Listen address of the admin API, namespaces (`--admin-listen-addr`), which the provider and the " +
					"replicas use to create databases; it requires the admin key. Default: `\"" + defaults.LibSQLAdminListen + "\"`.",
				Optional: true, Computed: true, Default: stringdefault.StaticString(defaults.LibSQLAdminListen),
				Validators: []validator.String{validators.ListenAddress()},
			},
			"public_host": schema.StringAttribute{
				MarkdownDescription: "Host name clients use in `url` and `admin_url` (the name the TLS certificate is for). Default: `host.address`.",
				Optional:            true,
			},
			"tls_cert_file": schema.StringAttribute{
				MarkdownDescription: "PEM certificate (chain) to serve both APIs over TLS (`--tls-cert-file`), a file on the machine running " +
					"Terraform, copied to the host; `url` is then `https://`. Give `tls_key_file` with it. A change of content restarts the server. " +
					"Clients that do not trust its CA take the CA as `ca_file` (the provider's `libsql.ca_file`, `modules/fleet`'s `libsql.ca_file`).",
				Optional: true,
			},
			"tls_key_file": schema.StringAttribute{
				MarkdownDescription: "PEM private key of `tls_cert_file`, on the machine running Terraform; copied to the host (mode 0600), never into the state.",
				Optional:            true,
			},
			"jwt_key_version": schema.StringAttribute{
				MarkdownDescription: "Any string; changing it generates a new Ed25519 key pair and new tokens, and the server refuses " +
					"the old tokens from then on. Default: `\"1\"`.",
				Optional: true, Computed: true, Default: stringdefault.StaticString("1"),
			},
			"token_lifetime": durationAttr("How long `auth_token` and `read_only_token` are valid (`dwk libsql` refuses tokens without an "+
				"expiry). A plan in the last quarter of it renews them with a new key pair; so does changing it.", defaults.LibSQLTokenLifetime, time.Hour),
			"admin_key": schema.StringAttribute{
				MarkdownDescription: "Admin API key (`--admin-auth-key`), at least 16 characters. **Write-only**: it goes into the host's " +
					"`libsql.json` only; a changed key restarts the server with it. Default: 32 random bytes, hex, generated by Terraform and " +
					"kept in the sensitive `admin_token`.",
				Optional: true, Sensitive: true, WriteOnly: true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(16)},
			},
			"admin_key_version": schema.StringAttribute{
				MarkdownDescription: "Any string; changing it generates a new admin key (when `admin_key` is unset).",
				Optional:            true,
			},
			"backup": schema.SingleNestedAttribute{
				MarkdownDescription: "Continuous backup to S3 (the `--backup-s3-*` flags; docs/backups.md): every namespace's commits are " +
					"shipped within `lag`, with periodic snapshots, and `dwk libsql restore` rebuilds the data dir from the bucket. The bucket " +
					"must exist (`dwk_bucket`). Default: no backup.",
				Optional: true,
				Attributes: map[string]schema.Attribute{
					"bucket":     schema.StringAttribute{MarkdownDescription: "Bucket.", Required: true, Validators: []validator.String{validators.BucketName()}},
					"prefix":     schema.StringAttribute{MarkdownDescription: "Key prefix in the bucket, e.g. `\"libsql/prod/\"`. Default: none.", Optional: true},
					"endpoint":   schema.StringAttribute{MarkdownDescription: "S3 endpoint URL, as the host reaches it. Default: AWS for the region.", Optional: true, Validators: []validator.String{validators.URL("http", "https")}},
					"region":     schema.StringAttribute{MarkdownDescription: "Region. Default: `\"" + defaults.S3Region + "\"`.", Optional: true},
					"access_key": schema.StringAttribute{MarkdownDescription: "Access key id. Default: the AWS credential chain on the host.", Optional: true},
					"secret_key": schema.StringAttribute{
						MarkdownDescription: "Secret access key. **Write-only**: written to the host's `libsql.json` (mode 0600), never into the state; a change restarts the server.",
						Optional:            true, Sensitive: true, WriteOnly: true,
					},
					"path_style":        schema.BoolAttribute{MarkdownDescription: "Path-style addressing (most self-hosted S3 servers). Default: `false`.", Optional: true},
					"lag":               schema.StringAttribute{MarkdownDescription: "Longest a commit waits before it is shipped (`--backup-lag`). Default: dwk libsql's (1s).", Optional: true, Validators: []validator.String{validators.Duration(time.Millisecond)}},
					"snapshot_interval": schema.StringAttribute{MarkdownDescription: "How often a changing namespace gets a fresh snapshot (`--backup-snapshot-interval`). Default: dwk libsql's.", Optional: true, Validators: []validator.String{validators.Duration(time.Second)}},
					"retention":         schema.StringAttribute{MarkdownDescription: "How far back point-in-time restore reaches (`--backup-retention`). Default: dwk libsql's.", Optional: true, Validators: []validator.String{validators.Duration(time.Second)}},
				},
			},
			"service": schema.StringAttribute{
				MarkdownDescription: "`\"systemd\"` (a unit run as a system user of its own in a sandbox; see docs/operations.md), `\"process\"` (a detached `dwk supervise`) or `\"auto\"` (systemd where the host was booted with it). Default: `\"" + defaults.Service + "\"`.",
				Optional:            true, Computed: true, Default: stringdefault.StaticString(defaults.Service),
				Validators: []validator.String{stringvalidator.OneOf(deploy.ServiceAuto, deploy.ServiceSystemd, deploy.ServiceProcess)},
			},
			"ready_timeout": durationAttr("How long a started server may take to answer `/health`.", defaults.ReadyTimeout, time.Second),
			"force_destroy": schema.BoolAttribute{
				MarkdownDescription: "Delete the data dir too when the resource is destroyed. Default: `false` (it stays on the host, and a new server in the same place serves it again).",
				Optional:            true, Computed: true, Default: booldefault.StaticBool(false),
			},
			"url":            computedString("Hrana URL for clients: `http(s)://<public_host>:<listen port>`; the provider's and `dwk_fleet`'s `libsql.url`."),
			"admin_url":      computedString("Admin API URL: `http(s)://<public_host>:<admin_listen port>`; the provider's and `dwk_fleet`'s `libsql.admin_url`."),
			"jwt_public_key": computedString("The public half of the JWT key pair (PEM), as installed on the host."),
			"auth_token": schema.StringAttribute{
				MarkdownDescription: "Full-access JWT (the provider's and `dwk_fleet`'s `libsql.auth_token`), valid until `tokens_expire`.",
				Computed:            true, Sensitive: true,
			},
			"read_only_token": schema.StringAttribute{
				MarkdownDescription: "Read-only JWT (`a = \"ro\"`), valid until `tokens_expire`.",
				Computed:            true, Sensitive: true,
			},
			"tokens_expire": computedString("When the tokens expire (RFC 3339)."),
			"admin_token": schema.StringAttribute{
				MarkdownDescription: "The generated admin key (the provider's and `dwk_fleet`'s `libsql.admin_token`); null when `admin_key` is given.",
				Computed:            true, Sensitive: true,
			},
			"service_manager": computedString("How the server runs: `systemd` or `process`."),
			"state":           computedString("`running`, `stopped` (installed, `/health` does not answer), `missing` or `unreachable`, as Read found it; the plan wants `running`."),
			"config_hash":     computedString("Salted hash of the host's `libsql.json`; the plan wants the hash of the configuration's."),
		},
	}
}
