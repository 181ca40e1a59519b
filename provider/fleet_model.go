package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// fleetModel is dwk_fleet's schema data. Collections stay framework values
// so that a plan with unknown parts (hosts from a VM resource that does not
// exist yet) still decodes; resolve turns known ones into a fleetSpec.
type fleetModel struct {
	ID             types.String   `tfsdk:"id"`
	Name           types.String   `tfsdk:"name"`
	Secret         types.String   `tfsdk:"secret"`
	StorageMode    types.String   `tfsdk:"storage_mode"`
	LibSQL         types.Object   `tfsdk:"libsql"`
	S3             types.Object   `tfsdk:"s3"`
	TLS            types.Object   `tfsdk:"tls"`
	Workers        types.List     `tfsdk:"workers"`
	AffinityRules  types.List     `tfsdk:"affinity_rules"`
	PublicPort     types.Int64    `tfsdk:"public_port"`
	InternalPort   types.Int64    `tfsdk:"internal_port"`
	AdminPort      types.Int64    `tfsdk:"admin_port"`
	DrainTimeout   types.String   `tfsdk:"drain_timeout"`
	LeaseTTL       types.String   `tfsdk:"lease_ttl"`
	LogLevel       types.String   `tfsdk:"log_level"`
	AdminToken     types.String   `tfsdk:"admin_token"`
	AdminTokenVer  types.String   `tfsdk:"admin_token_version"`
	Artifact       types.String   `tfsdk:"artifact"`
	ArtifactSHA256 types.String   `tfsdk:"artifact_sha256"`
	Hosts          types.List     `tfsdk:"hosts"`
	Service        types.String   `tfsdk:"service"`
	MaxParallel    types.Int64    `tfsdk:"max_parallel"`
	MinHealthyTime types.String   `tfsdk:"min_healthy_time"`
	AutoRevert     types.Bool     `tfsdk:"auto_revert"`
	RemoveUnreach  types.Bool     `tfsdk:"remove_unreachable"`
	Plaintext      types.Bool     `tfsdk:"insecure_plaintext_internal"`
	InternalCA     types.String   `tfsdk:"internal_ca_certificate"`
	ReadyTimeout   types.String   `tfsdk:"ready_timeout"`
	Protected      types.Bool     `tfsdk:"deletion_protection"`
	Timeouts       timeouts.Value `tfsdk:"timeouts"`
	Replicas       types.List     `tfsdk:"replicas"`
	URLs           types.List     `tfsdk:"urls"`
}

// hostModel is one element of hosts.
type hostModel struct {
	sshHostModel
	InstallDir types.String `tfsdk:"install_dir"`
	Member     types.String `tfsdk:"member"`
	Public     types.String `tfsdk:"public"`
	Internal   types.String `tfsdk:"internal"`
	Advertise  types.String `tfsdk:"advertise"`
	Admin      types.String `tfsdk:"admin"`
}

// fleetS3Model is dwk_fleet's s3 attribute.
type fleetS3Model struct {
	Bucket    types.String `tfsdk:"bucket"`
	Endpoint  types.String `tfsdk:"endpoint"`
	Region    types.String `tfsdk:"region"`
	AccessKey types.String `tfsdk:"access_key"`
	SecretKey types.String `tfsdk:"secret_key"`
	PathStyle types.Bool   `tfsdk:"path_style"`
}

// fleetTLSModel is dwk_fleet's tls attribute.
type fleetTLSModel struct {
	Domains    []string     `tfsdk:"domains"`
	Email      types.String `tfsdk:"email"`
	ACMECA     types.String `tfsdk:"acme_ca"`
	ACMECARoot types.String `tfsdk:"acme_ca_root"`
	Shared     types.Bool   `tfsdk:"shared"`
}

// workerModel is one element of workers.
type workerModel struct {
	Name        types.String `tfsdk:"name"`
	Project     types.String `tfsdk:"project"`
	Env         types.String `tfsdk:"env"`
	ProjectHash types.String `tfsdk:"project_hash"`
	// Secrets is write-only: null but in a configuration (see secretsOf).
	Secrets   map[string]string `tfsdk:"secrets"`
	Routes    []string          `tfsdk:"routes"`
	Bindings  *bindingsModel    `tfsdk:"bindings"`
	Crons     []string          `tfsdk:"crons"`
	Consumers []consumerModel   `tfsdk:"consumers"`
}

// bindingsModel is a worker's bindings.
type bindingsModel struct {
	D1      map[string]string `tfsdk:"d1"`
	R2      map[string]string `tfsdk:"r2"`
	KV      map[string]string `tfsdk:"kv"`
	Queues  map[string]string `tfsdk:"queues"`
	Objects map[string]string `tfsdk:"objects"`
	Vars    map[string]string `tfsdk:"vars"`
	// Services maps binding name → another worker of the fleet.
	Services map[string]string `tfsdk:"services"`
	// SecretFiles maps binding name → the file on each host that holds
	// the secret's value (which never passes through Terraform).
	SecretFiles map[string]string `tfsdk:"secret_files"`
}

// consumerModel is one queue consumer of a worker.
type consumerModel struct {
	Queue             types.String `tfsdk:"queue"`
	MaxBatchSize      types.Int64  `tfsdk:"max_batch_size"`
	MaxBatchTimeout   types.String `tfsdk:"max_batch_timeout"`
	MaxRetries        types.Int64  `tfsdk:"max_retries"`
	DeadLetterQueue   types.String `tfsdk:"dead_letter_queue"`
	RetryDelay        types.String `tfsdk:"retry_delay"`
	VisibilityTimeout types.String `tfsdk:"visibility_timeout"`
	MaxConcurrency    types.Int64  `tfsdk:"max_concurrency"`
}

// affinityModel is one element of affinity_rules.
type affinityModel struct {
	Namespace types.String `tfsdk:"namespace"`
	Path      types.String `tfsdk:"path"`
	Header    types.String `tfsdk:"header"`
	Query     types.String `tfsdk:"query"`
}

// replicaModel is one element of the computed replicas.
type replicaModel struct {
	Address        types.String `tfsdk:"address"`
	InstallDir     types.String `tfsdk:"install_dir"`
	Member         types.String `tfsdk:"member"`
	Service        types.String `tfsdk:"service"`
	State          types.String `tfsdk:"state"`
	Version        types.String `tfsdk:"version"`
	ConfigHash     types.String `tfsdk:"config_hash"`
	ArtifactSHA256 types.String `tfsdk:"artifact_sha256"`
	URL            types.String `tfsdk:"url"`
}

// replicaType is the object type of replicas' elements.
var replicaType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"address": types.StringType, "install_dir": types.StringType, "member": types.StringType,
	"service": types.StringType, "state": types.StringType, "version": types.StringType,
	"config_hash": types.StringType, "artifact_sha256": types.StringType, "url": types.StringType,
}}

// fullyKnown reports whether every part of every value is known.
func fullyKnown(ctx context.Context, vals ...attr.Value) bool {
	for _, v := range vals {
		tv, err := v.ToTerraformValue(ctx)
		if err != nil || !tv.IsFullyKnown() {
			return false
		}
	}
	return true
}

// hostsOf decodes a known hosts list.
func hostsOf(ctx context.Context, l types.List) ([]hostModel, diag.Diagnostics) {
	var hs []hostModel
	if l.IsNull() || l.IsUnknown() {
		return nil, nil
	}
	diags := l.ElementsAs(ctx, &hs, false)
	return hs, diags
}

// replicasOf decodes a known replicas list.
func replicasOf(ctx context.Context, l types.List) ([]replicaModel, diag.Diagnostics) {
	var rs []replicaModel
	if l.IsNull() || l.IsUnknown() {
		return nil, nil
	}
	diags := l.ElementsAs(ctx, &rs, false)
	return rs, diags
}

// replicaList encodes replicas.
func replicaList(ctx context.Context, rs []replicaModel) (types.List, diag.Diagnostics) {
	return types.ListValueFrom(ctx, replicaType, rs)
}

// strOrUnknown is s, or unknown when s is "".
func strOrUnknown(s string) types.String {
	if s == "" {
		return types.StringUnknown()
	}
	return types.StringValue(s)
}

// objectAsOptions decodes objects strictly: null and unknown are errors
// (callers check for null first; resolve checks that all is known).
var objectAsOptions = basetypes.ObjectAsOptions{}
