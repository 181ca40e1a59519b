package wrangler

// scope says where a top-level key may appear and whether environments
// inherit it, following wrangler's config types (environment.ts:
// EnvironmentInheritable, EnvironmentNonInheritable; config.ts:
// ConfigFields).
type scope int

const (
	// inherited keys apply to an environment that does not set them.
	inherited scope = iota
	// perEnv keys are not inherited: an environment that lacks one has
	// none, and Load warns when the top level has it, as wrangler does.
	perEnv
	// topOnly keys are read at the top level only and apply to every
	// environment; inside an environment wrangler ignores them with a
	// warning, and so does Load.
	topOnly
)

// status says what dwk does with a key.
type status int

const (
	// read keys become fields of Project.
	read status = iota
	// ignored keys mean nothing on dwk; Load warns, naming the key and why.
	ignored
	// refused keys are features dwk does not have; Load fails, naming the
	// key and why, rather than run a worker that would break when it uses
	// them.
	refused
	// meta keys are for editors and mean nothing to wrangler either
	// ($schema); Load accepts them without a word.
	meta
)

// key is one row of the table of every top-level key.
type key struct {
	name   string
	scope  scope
	status status
	why    string // for ignored and refused keys: the reason given
}

// keys is every top-level (and environment) key Load knows. Any other key
// is an error that names it. README.md has the same table for people; a
// test keeps the two equal.
var keys = []key{
	// Read into Project.
	{"name", inherited, read, ""},
	{"main", inherited, read, ""},
	{"compatibility_date", inherited, read, ""},
	{"compatibility_flags", inherited, read, ""},
	{"vars", perEnv, read, ""},
	{"secrets", perEnv, read, ""},
	{"kv_namespaces", perEnv, read, ""},
	{"r2_buckets", perEnv, read, ""},
	{"d1_databases", perEnv, read, ""},
	{"durable_objects", perEnv, read, ""},
	{"migrations", inherited, read, ""},
	{"queues", perEnv, read, ""},
	{"services", perEnv, read, ""},
	{"triggers", inherited, read, ""},
	{"assets", inherited, read, ""},
	{"build", inherited, read, ""},
	{"rules", inherited, read, ""},
	{"find_additional_modules", inherited, read, ""},
	{"base_dir", inherited, read, ""},
	{"preserve_file_names", inherited, read, ""},
	{"no_bundle", inherited, read, ""},
	{"define", perEnv, read, ""},
	{"alias", topOnly, read, ""},
	{"tsconfig", inherited, read, ""},
	{"jsx_factory", inherited, read, ""},
	{"jsx_fragment", inherited, read, ""},
	{"minify", inherited, read, ""},
	{"keep_names", inherited, read, ""},
	{"limits", inherited, read, ""},

	// Meaningless on dwk: warnings.
	{"account_id", inherited, ignored, "dwk has no Cloudflare account"},
	{"workers_dev", inherited, ignored, "dwk serves the worker on the routes in dwk.json; there is no workers.dev subdomain"},
	{"preview_urls", inherited, ignored, "dwk has no preview URLs"},
	{"route", inherited, ignored, "dwk routes requests by the routes in dwk.json"},
	{"routes", inherited, ignored, "dwk routes requests by the routes in dwk.json"},
	{"placement", inherited, ignored, "dwk runs the worker on its own replicas; there is no Smart Placement"},
	{"observability", inherited, ignored, "dwk writes its own logs and /metrics"},
	{"logpush", inherited, ignored, "dwk has no Logpush; its logs go where dwk.json says"},
	{"upload_source_maps", inherited, ignored, "dwk uploads nothing to Cloudflare"},
	{"compliance_region", inherited, ignored, "data stays where dwk.json puts it"},
	{"first_party_worker", inherited, ignored, "it is an internal Cloudflare setting"},
	{"cache", inherited, ignored, "dwk puts no cache in front of the worker"},
	{"access", inherited, ignored, "dwk does not simulate Cloudflare Access"},
	{"previews", inherited, ignored, "dwk has no preview deployments"},
	{"usage_model", inherited, ignored, "it only chose a Cloudflare billing plan, and wrangler v4 dropped it"},
	{"zone_id", inherited, ignored, "it is a wrangler v1 key; dwk routes by dwk.json"},
	{"send_metrics", topOnly, ignored, "dwk sends no usage metrics"},
	{"dependencies_instrumentation", topOnly, ignored, "dwk uploads nothing to Cloudflare"},
	{"dev", topOnly, ignored, "dwk's addresses and protocols come from dwk.json"},
	{"keep_vars", topOnly, ignored, "there is no dashboard to keep vars from; vars come from this file"},
	{"addresses", topOnly, ignored, "dwk does not receive email, so the worker's email handler is never called"},
	{"$schema", topOnly, meta, ""},

	// Features dwk does not have: errors.
	{"ai", perEnv, refused, "there is no Workers AI on dwk"},
	{"ai_search", perEnv, refused, "there is no AI Search on dwk"},
	{"ai_search_namespaces", perEnv, refused, "there is no AI Search on dwk"},
	{"agent_memory", perEnv, refused, "there is no Agent Memory on dwk"},
	{"websearch", perEnv, refused, "there is no Web Search on dwk"},
	{"browser", perEnv, refused, "there is no Browser Rendering on dwk"},
	{"vectorize", perEnv, refused, "there is no Vectorize on dwk"},
	{"hyperdrive", perEnv, refused, "there is no Hyperdrive on dwk"},
	{"analytics_engine_datasets", perEnv, refused, "there is no Analytics Engine on dwk"},
	{"workflows", perEnv, refused, "there are no Workflows on dwk"},
	{"dispatch_namespaces", perEnv, refused, "there is no Workers for Platforms on dwk"},
	{"mtls_certificates", perEnv, refused, "dwk has no mTLS certificate bindings"},
	{"send_email", perEnv, refused, "dwk does not send email"},
	{"tail_consumers", perEnv, refused, "dwk has no Tail Workers"},
	{"streaming_tail_consumers", perEnv, refused, "dwk has no Tail Workers"},
	{"unsafe", perEnv, refused, "dwk cannot provide arbitrary Cloudflare bindings"},
	{"pipelines", perEnv, refused, "there are no Pipelines on dwk"},
	{"images", perEnv, refused, "there is no Images binding on dwk"},
	{"stream", perEnv, refused, "there is no Stream binding on dwk"},
	{"media", perEnv, refused, "there is no Media Transformations binding on dwk"},
	{"version_metadata", perEnv, refused, "dwk has no version metadata binding"},
	{"secrets_store_secrets", perEnv, refused, "there is no Secrets Store on dwk; use .dev.vars"},
	{"artifacts", perEnv, refused, "there is no Artifacts binding on dwk"},
	{"ratelimits", perEnv, refused, "dwk has no rate limit bindings"},
	{"worker_loaders", perEnv, refused, "dwk cannot load workers at run time"},
	{"vpc_services", perEnv, refused, "dwk has no VPC bindings"},
	{"vpc_networks", perEnv, refused, "dwk has no VPC bindings"},
	{"flagship", perEnv, refused, "there is no Flagship on dwk"},
	{"unsafe_hello_world", perEnv, refused, "it is a wrangler test binding"},
	{"connect", perEnv, refused, "dwk does not hand raw TCP connections to workers"},
	{"containers", perEnv, refused, "dwk does not run containers"},
	{"cloudchamber", perEnv, refused, "dwk does not run containers"},
	{"logfwdr", inherited, refused, "it is an internal Cloudflare binding"},
	{"python_modules", inherited, refused, "dwk runs JavaScript and TypeScript workers only"},
	{"exports", inherited, refused, "declare Durable Object classes with migrations instead"},
	{"node_compat", inherited, refused, `wrangler v4 removed it too; add "nodejs_compat" to compatibility_flags instead`},
	{"site", topOnly, refused, "Workers Sites are not supported; serve the files with assets instead"},
	{"wasm_modules", topOnly, refused, "import .wasm files from the code instead (a CompiledWasm rule)"},
	{"text_blobs", topOnly, refused, "import text files from the code instead (a Text rule)"},
	{"data_blobs", topOnly, refused, "import binary files from the code instead (a Data rule)"},
	{"pages_build_output_dir", topOnly, refused, "this is a Pages project; dwk runs Workers"},
	{"legacy_env", topOnly, refused, `wrangler v4 removed it too; remove it: each environment is its own worker named "<name>-<env>"`},
}

// keyByName finds a row of keys.
func keyByName(name string) (key, bool) {
	for _, k := range keys {
		if k.name == name {
			return k, true
		}
	}
	return key{}, false
}
