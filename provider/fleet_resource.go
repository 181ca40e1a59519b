package provider

import (
	"context"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/provider/internal/defaults"
	"github.com/dwk/fleet/provider/internal/deploy"
	"github.com/dwk/fleet/provider/internal/planmodifiers"
	"github.com/dwk/fleet/provider/internal/validators"
)

// fleetResource is dwk_fleet: the dwk replicas of one fleet, deployed to
// hosts over SSH or on the local machine and rolled on every change. The
// CRUD methods are in fleet_apply.go, the plan in fleet_plan.go.
type fleetResource struct {
	data *providerData
	// newDeployer makes the deployer of one operation; tests may replace it.
	newDeployer func() *deploy.Deployer
}

var (
	_ resource.Resource                   = (*fleetResource)(nil)
	_ resource.ResourceWithConfigure      = (*fleetResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*fleetResource)(nil)
	_ resource.ResourceWithValidateConfig = (*fleetResource)(nil)
	_ resource.ResourceWithImportState    = (*fleetResource)(nil)
)

// NewFleetResource returns dwk_fleet.
func NewFleetResource() resource.Resource { return &fleetResource{newDeployer: deploy.New} }

func (r *fleetResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fleet"
}

func (r *fleetResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func durationAttr(desc, def string, min time.Duration) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: desc + " A duration like `\"30s\"` or `\"2m\"`. Default: `\"" + def + "\"`.",
		Optional:            true, Computed: true, Default: stringdefault.StaticString(def),
		Validators: []validator.String{validators.Duration(min)},
	}
}

func portAttr(desc string, def int64) schema.Int64Attribute {
	return schema.Int64Attribute{
		MarkdownDescription: desc + " Default: `" + itoa(def) + "`.",
		Optional:            true, Computed: true, Default: int64default.StaticInt64(def),
		Validators: []validator.Int64{int64validator.Between(1, 65535)},
	}
}

func stringMap(desc string) schema.MapAttribute {
	return schema.MapAttribute{MarkdownDescription: desc, Optional: true, ElementType: types.StringType}
}

func (r *fleetResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A dwk fleet: the `dwk` replicas, deployed to hosts over SSH (or on the machine running Terraform) " +
			"and rolled on every change.\n\n" +
			"**Create** uploads the binary to `<install_dir>/bin/dwk-<sha256[:12]>` (atomically, checked against its sha256) and points " +
			"`<install_dir>/current` at it, writes `<install_dir>/dwk.json` (mode 0600, rendered from the typed attributes through dwk's own " +
			"config package), has the new binary `dwk validate` it, starts the replica — as the systemd unit `dwk-<name>.service` or, where a host " +
			"has no systemd, as a `dwk supervise` process — and waits for `/readyz`.\n\n" +
			"**Update** rolls, at most `max_parallel` hosts at a time. Each batch is staged first (upload, render, validate), so a bad binary " +
			"or config fails the first batch before any of its replicas stops, and a host that cannot be reached fails only its own batch: " +
			"the other batches go on, and the apply then fails naming it (or, with `remove_unreachable`, warns). The hosts of a batch are drained (SIGTERM through the service manager: the replica stops taking work, " +
			"finishes what it has and exits 0), switched to the new binary and config, started, and must answer `/readyz` with 200 for " +
			"`min_healthy_time` before the next batch starts. A failed host stops the rollout; with `auto_revert` the hosts already changed get " +
			"their previous binary and config back. Every step is appended to `<install_dir>/deploy.log` (`<RFC 3339 time> <event>`: " +
			"`install`, `drain`, `stopped`, `start`, `ready`, `healthy`, `failed`, `revert`).\n\n" +
			"**Read** asks each replica's admin API (`GET /admin/status`, through an SSH `direct-tcpip` channel, so the admin port need not be " +
			"exposed) for its state, version and config hash, and inspects the install directory: a stopped replica, a changed `dwk.json` or a " +
			"different binary shows as a change of `replicas` in `terraform plan`, and the next apply repairs it.\n\n" +
			"Each operation ends by its `timeouts` (default " + defaults.Duration(defaults.OperationTimeout) + " each): a rollout that has not " +
			"finished fails naming the timeout, and the state records what each host runs at that moment, as it does for an interrupted apply.\n\n" +
			"**Delete** drains every replica, removes its service (unit or process) and deletes everything it installed, including the install " +
			"directory and, in local mode, the data in it.\n\n" +
			"**Import** a central-mode fleet by name (`terraform import dwk_fleet.x NAME`, or an `import` block with `id = NAME`): every " +
			"apply keeps a record of the resource's state (which holds no secret) and its config hash salt in the fleet's coordination " +
			"database, and import reads it back through the provider's `libsql`, so a lost state adopts the running fleet and the plan " +
			"shows no changes. A local-mode fleet keeps no record (its hosts share no store) and cannot be imported.\n\n" +
			"Changing `name` replaces the fleet; everything else, including adding, removing or re-addressing hosts, is an in-place rollout.",
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
		},
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The fleet name.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "Fleet name (`fleet.name`): 1-63 characters of `a-z`, `0-9` and `-`. Changing it replaces the fleet.",
				Required:            true,
				Validators:          []validator.String{validators.FleetName()},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"secret": schema.StringAttribute{
				MarkdownDescription: "Fleet secret (`fleet.secret`): derives object ids and authenticates calls between replicas. Required in " +
					"central mode, at least 32 characters (e.g. `openssl rand -hex 32`); in local mode each replica generates its own when unset. " +
					"**Write-only** (Terraform 1.11 or later): never stored in the plan or state. Changing it rolls the fleet.",
				Optional: true, Sensitive: true, WriteOnly: true,
			},
			"storage_mode": schema.StringAttribute{
				MarkdownDescription: "`\"local\"` (each replica keeps its data in `<install_dir>/data`) or `\"central\"` (every replica shares " +
					"`libsql` and `s3`). Default: `\"" + defaults.StorageMode + "\"`.",
				Optional: true, Computed: true, Default: stringdefault.StaticString(defaults.StorageMode),
				Validators: []validator.String{stringvalidator.OneOf(config.ModeLocal, config.ModeCentral)},
			},
			"libsql": schema.SingleNestedAttribute{
				MarkdownDescription: "Central mode: the libSQL server the replicas use (`storage.libsql`). Unset fields fall back to the " +
					"provider's `libsql`. The URLs must be reachable from the hosts.",
				Optional: true,
				Attributes: map[string]schema.Attribute{
					"url":         schema.StringAttribute{MarkdownDescription: "Hrana URL.", Optional: true, Validators: []validator.String{validators.URL("http", "https", "ws", "wss", "libsql")}},
					"admin_url":   schema.StringAttribute{MarkdownDescription: "Admin API URL (to create object packs and D1 databases).", Optional: true, Validators: []validator.String{validators.URL("http", "https")}},
					"auth_token":  schema.StringAttribute{MarkdownDescription: "JWT for `url`. **Write-only**: rendered into the hosts' `dwk.json`, never stored in the state; a change rolls the fleet.", Optional: true, Sensitive: true, WriteOnly: true},
					"admin_token": schema.StringAttribute{MarkdownDescription: "Admin API key. **Write-only**, as `auth_token`.", Optional: true, Sensitive: true, WriteOnly: true},
					"ca_file": schema.StringAttribute{MarkdownDescription: "PEM file, on the machine Terraform runs on, of the CA certificate(s) the libSQL " +
						"server's certificate chains to (`storage.libsql.ca_file`); copied to every host. A change of its content rolls the fleet.", Optional: true},
				},
			},
			"s3": schema.SingleNestedAttribute{
				MarkdownDescription: "Central mode: the S3 store the replicas use (`storage.s3`). Unset connection fields fall back to the provider's `s3`.",
				Optional:            true,
				Attributes: map[string]schema.Attribute{
					"bucket":     schema.StringAttribute{MarkdownDescription: "Bucket holding the fleet's blobs and mode marker.", Required: true, Validators: []validator.String{validators.BucketName()}},
					"endpoint":   schema.StringAttribute{MarkdownDescription: "Endpoint URL.", Optional: true, Validators: []validator.String{validators.URL("http", "https")}},
					"region":     schema.StringAttribute{MarkdownDescription: "Region.", Optional: true},
					"access_key": schema.StringAttribute{MarkdownDescription: "Access key id.", Optional: true},
					"secret_key": schema.StringAttribute{MarkdownDescription: "Secret access key. **Write-only**: rendered into the hosts' `dwk.json`, never stored in the state; a change rolls the fleet.", Optional: true, Sensitive: true, WriteOnly: true},
					"path_style": schema.BoolAttribute{MarkdownDescription: "Path-style addressing.", Optional: true},
				},
			},
			"tls": schema.SingleNestedAttribute{
				MarkdownDescription: "Central mode: automatic HTTPS on the front door (`listen.tls`). Every replica answers `domains` over HTTPS on " +
					"`public_port` with certificates it obtains from an ACME CA, and, when `public_port` is 443, redirects plain HTTP on " +
					"port 80 to it (the unit then holds `CAP_NET_BIND_SERVICE`). The domains must resolve to the hosts (or to a load " +
					"balancer in front of them) for the CA's challenges. A change rolls the fleet.",
				Optional: true,
				Attributes: map[string]schema.Attribute{
					"domains": schema.ListAttribute{MarkdownDescription: "The domains served, each with a certificate of its own.", ElementType: types.StringType, Required: true,
						Validators: []validator.List{listvalidator.SizeAtLeast(1), listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))}},
					"email": schema.StringAttribute{MarkdownDescription: "Contact email of the ACME account.", Optional: true},
					"acme_ca": schema.StringAttribute{MarkdownDescription: "Directory URL of the ACME CA (a private step-ca, say). Default: Let's Encrypt.", Optional: true,
						Validators: []validator.String{validators.URL("https")}},
					"acme_ca_root": schema.StringAttribute{MarkdownDescription: "PEM file, on the machine Terraform runs on, of the root certificate(s) " +
						"that `acme_ca`'s own TLS certificate chains to, for a CA the hosts do not trust (`listen.tls.acme_ca_root`); copied to every " +
						"host. A change of its content rolls the fleet.", Optional: true},
					"shared": schema.BoolAttribute{MarkdownDescription: "Keep the ACME account and the certificates in the fleet's " +
						"coordination database, sealed with `secret`, so one replica obtains each certificate and every replica serves it; `false` " +
						"keeps them in each host's `<install_dir>/data`. Default: `true`.", Optional: true},
				},
			},
			"workers": schema.ListNestedAttribute{
				MarkdownDescription: "The applications the replicas serve (`workers`): each a Go worker registered in the binary under `name`, " +
					"or a Workers project in JavaScript or TypeScript (`project`). " +
					"Default: the reference workers of the standard `dwk` binary (`counter` and `chat`) with their affinity rules.",
				Optional: true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name": schema.StringAttribute{
						MarkdownDescription: "Worker name: a Go worker's registered name; for a `project`, the name its wrangler file gives unless set here.",
						Optional:            true, Computed: true,
					},
					"project": schema.StringAttribute{
						MarkdownDescription: "A Workers project this worker runs, on the machine running Terraform: a wrangler file " +
							"(`wrangler.jsonc`, `wrangler.json`, `wrangler.toml`), the directory holding one, or an artifact that `dwk bundle` wrote " +
							"(`.dwkb`). Relative paths are relative to Terraform's working directory; use `path.module`. A wrangler project is " +
							"built here, at plan time (its build command, then bundling, in the provider: its `node_modules` must be installed, " +
							"the hosts need no Node.js), into an artifact that travels with the binary to " +
							"`<install_dir>/projects/<content hash[:12]>.dwkb`. Its name, bindings, crons and queue consumers come from the " +
							"wrangler file; `bindings` here replace those of the same name. A change in the project changes `project_hash`, " +
							"and the fleet rolls as for a new binary. See [docs/workers-projects.md](https://github.com/dwk/fleet/blob/main/docs/workers-projects.md).",
						Optional: true,
					},
					"env": schema.StringAttribute{MarkdownDescription: "The wrangler environment of `project`, as wrangler's `--env`. Default: the top level.", Optional: true},
					"project_hash": schema.StringAttribute{
						MarkdownDescription: "The content hash of `project`'s artifact (what `dwk bundle` prints), or null without a project.",
						Computed:            true,
					},
					"secrets": schema.MapAttribute{
						MarkdownDescription: "Secret bindings: name → value, as `wrangler secret put` sets them (JavaScript: `env.NAME`; Go: " +
							"`env.Secret(name)`). **Write-only** (Terraform 1.11 or later): rendered into the hosts' `dwk.json` (mode 0600), " +
							"never stored in the plan or state; a change rolls the fleet. `dwk secret put` sets one on a running fleet instead.",
						Optional: true, Sensitive: true, WriteOnly: true, ElementType: types.StringType,
					},
					"routes": schema.ListAttribute{MarkdownDescription: "URL path prefixes; the longest match wins. Default: `[\"/<name>/\"]`.", Optional: true, ElementType: types.StringType},
					"bindings": schema.SingleNestedAttribute{
						MarkdownDescription: "What the worker's `Env` holds: binding name → store name.",
						Optional:            true,
						Attributes: map[string]schema.Attribute{
							"d1":       stringMap("D1 databases."),
							"r2":       stringMap("R2 buckets."),
							"kv":       stringMap("KV namespaces."),
							"queues":   stringMap("Queue producers."),
							"objects":  stringMap("Durable Object classes."),
							"vars":     stringMap("Plain variables."),
							"services": stringMap("Service bindings: another worker of the fleet, called in process (`env.Service(name)`)."),
							"secret_files": stringMap("Secret bindings (`env.Secret(name)`): binding name → path of a file on each host holding the value " +
								"(readable by the replica; the value never passes through Terraform). `dwk validate` on the host checks that it can be read."),
						},
					},
					"crons": schema.ListAttribute{MarkdownDescription: "Cron schedules (5 fields, UTC; or 6 with leading seconds).", Optional: true, ElementType: types.StringType},
					"consumers": schema.ListNestedAttribute{
						MarkdownDescription: "Queues the worker consumes.",
						Optional:            true,
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"queue":              schema.StringAttribute{MarkdownDescription: "Queue name.", Required: true},
							"max_batch_size":     schema.Int64Attribute{MarkdownDescription: "Most messages per batch, 1-100. Default: `" + strconv.Itoa(config.DefaultMaxBatchSize) + "`.", Optional: true, Validators: []validator.Int64{int64validator.Between(1, 100)}},
							"max_batch_timeout":  schema.StringAttribute{MarkdownDescription: "How long to wait to fill a batch. Default: `\"" + defaults.Duration(config.DefaultMaxBatchTimeout) + "\"`.", Optional: true, Validators: []validator.String{validators.Duration(0)}},
							"max_retries":        schema.Int64Attribute{MarkdownDescription: "Retries before the dead-letter queue, 0-100. Default: `" + strconv.Itoa(config.DefaultMaxRetries) + "`.", Optional: true, Validators: []validator.Int64{int64validator.Between(0, 100)}},
							"dead_letter_queue":  schema.StringAttribute{MarkdownDescription: "Queue for messages out of retries. Default: none.", Optional: true},
							"max_concurrency":    schema.Int64Attribute{MarkdownDescription: "Batches of this queue one replica runs at once, 1-250. Default: 1.", Optional: true, Validators: []validator.Int64{int64validator.Between(1, 250)}},
							"retry_delay":        schema.StringAttribute{MarkdownDescription: "Delay of a retry that names none. Default: `\"0s\"`.", Optional: true, Validators: []validator.String{validators.Duration(0)}},
							"visibility_timeout": schema.StringAttribute{MarkdownDescription: "How long a claimed batch stays hidden. Default: `\"" + defaults.Duration(config.DefaultVisibility) + "\"`.", Optional: true, Validators: []validator.String{validators.Duration(0)}},
						}},
					},
				}},
			},
			"affinity_rules": schema.ListNestedAttribute{
				MarkdownDescription: "How the front door finds the object a request is for (`affinity.rules`); exactly one of `path`, " +
					"`header` and `query` per rule. Default: none, or the reference workers' rules when `workers` is unset.",
				Optional: true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"namespace": schema.StringAttribute{MarkdownDescription: "Object class (namespace).", Required: true},
					"path":      schema.StringAttribute{MarkdownDescription: "Path pattern like `/counter/{name}/...`.", Optional: true},
					"header":    schema.StringAttribute{MarkdownDescription: "Request header holding the object name.", Optional: true},
					"query":     schema.StringAttribute{MarkdownDescription: "Query parameter holding the object name.", Optional: true},
				}},
			},
			"public_port":   portAttr("Port of the public listener (the front door) on every host, unless a host sets `public`.", defaults.PublicPort),
			"internal_port": portAttr("Central mode: port of the internal listener replicas forward to, unless a host sets `internal`.", defaults.InternalPort),
			"admin_port":    portAttr("Port of the admin listener (admin API, metrics, health), on the host's loopback unless a host sets `admin`.", defaults.AdminPort),
			"drain_timeout": durationAttr("How long a draining replica may take to finish in-flight work (`drain.timeout`); stopping kills a replica after this plus 15s.", defaults.DrainTimeout, time.Second),
			"lease_ttl":     durationAttr("Object lease TTL (`lease.ttl`), at least "+defaults.Duration(defaults.MinLeaseTTL)+".", defaults.LeaseTTL, defaults.MinLeaseTTL),
			"log_level": schema.StringAttribute{
				MarkdownDescription: "`debug`, `info`, `warn` or `error`. Default: `\"" + defaults.LogLevel + "\"`.",
				Optional:            true, Computed: true, Default: stringdefault.StaticString(defaults.LogLevel),
				Validators: []validator.String{stringvalidator.OneOf("debug", "info", "warn", "error")},
			},
			"admin_token": schema.StringAttribute{
				MarkdownDescription: "Admin API token (`admin.token`). Default: 32 random bytes, hex, generated by the first apply. " +
					"**Write-only**: the token lives only in the hosts' `dwk.json` (mode 0600); refresh and later applies read it back from " +
					"there, and so does `dwk_fleet_status`. Changing a given token takes effect when `admin_token_version` changes.",
				Optional: true, Sensitive: true, WriteOnly: true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(16)},
			},
			"admin_token_version": schema.StringAttribute{
				MarkdownDescription: "Any string; changing it rolls the fleet with `admin_token` (a new generated one when `admin_token` is unset). " +
					"The write-only token itself is not compared between plans.",
				Optional: true,
			},
			"artifact": schema.StringAttribute{
				MarkdownDescription: "Path of the `dwk` binary to deploy, on the machine running Terraform. Its content, not its path, decides " +
					"whether the fleet rolls (see `artifact_sha256`).",
				Required: true,
			},
			"artifact_sha256": schema.StringAttribute{
				MarkdownDescription: "The sha256 of `artifact`, read at plan time: a new binary at the same path rolls the fleet.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{planmodifiers.FileSHA256(path.Root("artifact"))},
			},
			"hosts": schema.ListNestedAttribute{
				MarkdownDescription: "Where the replicas run, one per element. A host is identified by `address` and `install_dir`: " +
					"changing either removes the replica there and installs a new one.",
				Required:     true,
				Validators:   []validator.List{listvalidator.SizeAtLeast(1)},
				NestedObject: schema.NestedAttributeObject{Attributes: hostAttributes()},
			},
			"service": schema.StringAttribute{
				MarkdownDescription: "How replicas run: `\"systemd\"` (a unit in /etc/systemd/system, run as a system user of its own in a sandbox; see docs/operations.md), `\"process\"` (a detached `dwk supervise` " +
					"that restarts a failed replica with backoff) or `\"auto\"` (systemd where the host was booted with it, else process). Default: `\"" + defaults.Service + "\"`.",
				Optional: true, Computed: true, Default: stringdefault.StaticString(defaults.Service),
				Validators: []validator.String{stringvalidator.OneOf(deploy.ServiceAuto, deploy.ServiceSystemd, deploy.ServiceProcess)},
			},
			"max_parallel": schema.Int64Attribute{
				MarkdownDescription: "Most replicas out of rotation at once during an update. Default: `" + itoa(defaults.MaxParallel) + "`.",
				Optional:            true, Computed: true, Default: int64default.StaticInt64(defaults.MaxParallel),
				Validators: []validator.Int64{int64validator.AtLeast(1)},
			},
			"min_healthy_time": durationAttr("How long an updated replica must keep answering `/readyz` with 200 before the next batch starts.", defaults.MinHealthyTime, 0),
			"auto_revert": schema.BoolAttribute{
				MarkdownDescription: "When an update fails, put the previous binary and config back on the hosts already changed. Default: `" + strconv.FormatBool(defaults.AutoRevert) + "`.",
				Optional:            true, Computed: true, Default: booldefault.StaticBool(defaults.AutoRevert),
			},
			"deletion_protection": deletionProtectionAttr("a local-mode fleet's data (`<install_dir>/data` on every host; " +
				"removing a host from `hosts` is refused too). Central-mode data lives in the stores, which `dwk_database` and `dwk_bucket` guard"),
			"remove_unreachable": schema.BoolAttribute{
				MarkdownDescription: "Go on without hosts that cannot be reached (the SSH connection fails, after retries): a host in `hosts` " +
					"is left out of the rollout, with a warning naming it, and stays planned for the next apply; a host removed from `hosts` is " +
					"dropped from the state without being uninstalled (whatever it runs stays there). Without it, an unreachable host fails " +
					"the apply with an error naming it. Default: `false`.",
				Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			},
			"insecure_plaintext_internal": schema.BoolAttribute{
				MarkdownDescription: "Turn off mutual TLS between the replicas (central mode). By default every replica's internal listener, " +
					"and its admin listener when that is not on loopback, speaks TLS with a certificate of a fleet CA that the provider derives " +
					"from `secret` (see `internal_ca_certificate`); with this set they speak plain HTTP, and forwarded requests are only signed " +
					"with the fleet secret. Only for replicas on a network nothing else can see. Changing it rolls the fleet, and during that " +
					"rollout an updated replica and one not yet updated cannot forward to each other. Default: `false`.",
				Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			},
			"internal_ca_certificate": schema.StringAttribute{
				MarkdownDescription: "The fleet CA certificate (PEM) that the replicas' certificates chain to, derived from `secret` and " +
					"`name` (no key is kept in the state: the same secret gives the same CA on every plan). Give it to `dwk status --ca-file` " +
					"for an admin listener that is not on loopback. Null in local mode and with `insecure_plaintext_internal`.",
				Computed: true,
			},
			"ready_timeout": durationAttr("How long a started replica may take to answer `/readyz` with 200.", defaults.ReadyTimeout, time.Second),
			"replicas": schema.ListNestedAttribute{
				MarkdownDescription: "What each host runs, in the order of `hosts`, as `Read` found it. The plan wants every `state` to be " +
					"`\"running\"` and every `config_hash` and `artifact_sha256` to match the configuration, so drift shows as a change here.",
				Computed: true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"address":         schema.StringAttribute{MarkdownDescription: "The host's address.", Computed: true},
					"install_dir":     schema.StringAttribute{MarkdownDescription: "The install directory.", Computed: true},
					"member":          schema.StringAttribute{MarkdownDescription: "The member name.", Computed: true},
					"service":         schema.StringAttribute{MarkdownDescription: "`systemd` or `process`.", Computed: true},
					"state":           schema.StringAttribute{MarkdownDescription: "`running`, `starting`, `draining`, `stopped` (installed, not answering), `missing` (not installed) or `unreachable`.", Computed: true},
					"version":         schema.StringAttribute{MarkdownDescription: "The version the replica reports.", Computed: true},
					"config_hash":     schema.StringAttribute{MarkdownDescription: "Hash of the config the replica runs (or, when it differs, of its dwk.json).", Computed: true},
					"artifact_sha256": schema.StringAttribute{MarkdownDescription: "sha256 of the installed binary (its first 12 hex digits when it is not the one Terraform installed).", Computed: true},
					"url":             schema.StringAttribute{MarkdownDescription: "The replica's public URL.", Computed: true},
				}},
			},
			"urls": schema.ListAttribute{
				MarkdownDescription: "Public URLs of the replicas, in the order of `hosts`: `https` with `tls` (a client then names one of its `domains` as the server name).",
				Computed:            true, ElementType: types.StringType,
			},
		},
	}
}

// hostAttributes is the schema of hostModel: how the host is reached and
// what its replica listens on.
func hostAttributes() map[string]schema.Attribute {
	attrs := sshHostAttributes(
		schema.StringAttribute{
			MarkdownDescription: "SSH host name or IP address, or `\"local\"` for the machine running Terraform.",
			Required:            true,
		},
		schema.StringAttribute{
			MarkdownDescription: "The host's public SSH host key in authorized_keys format (`\"ssh-ed25519 AAAA...\"`, e.g. from " +
				"`ssh-keyscan -t ed25519 HOST`). Required for SSH hosts: the connection is refused when the host presents another key.",
			Optional: true,
		})
	for name, a := range map[string]schema.Attribute{
		"install_dir": schema.StringAttribute{
			MarkdownDescription: "Absolute directory holding everything installed on the host. Default: `\"" + defaults.InstallDir("<name>") + "\"`.",
			Optional:            true,
			Validators:          []validator.String{validators.AbsPath()},
		},
		"member": schema.StringAttribute{
			MarkdownDescription: "Member name of the replica (`fleet.member`). Default: `address`; for `\"local\"` hosts `\"local-<n>\"` (n counts local hosts from 1).",
			Optional:            true,
			Validators:          []validator.String{validators.MemberName()},
		},
		"public": schema.StringAttribute{
			MarkdownDescription: "Public listen address (`listen.public`). Default: `\"0.0.0.0:<public_port>\"`.",
			Optional:            true, Validators: []validator.String{validators.ListenAddress()},
		},
		"internal": schema.StringAttribute{
			MarkdownDescription: "Central mode: internal listen address (`listen.internal`). Default: `\"0.0.0.0:<internal_port>\"`.",
			Optional:            true, Validators: []validator.String{validators.ListenAddress()},
		},
		"advertise": schema.StringAttribute{
			MarkdownDescription: "Central mode: the internal address other replicas dial (`listen.advertise`). Default: `\"<address>:<internal port>\"`.",
			Optional:            true, Validators: []validator.String{validators.ListenAddress()},
		},
		"admin": schema.StringAttribute{
			MarkdownDescription: "Admin listen address (`listen.admin`). Default: `\"127.0.0.1:<admin_port>\"`, reached through SSH.",
			Optional:            true, Validators: []validator.String{validators.ListenAddress()},
		},
	} {
		attrs[name] = a
	}
	return attrs
}
