package wrangler

import "time"

// Project is a wrangler project resolved for one environment: every key
// dwk reads, with wrangler's defaults applied and every path absolute.
// Load makes it; the bundler and the JavaScript runtime read it.
type Project struct {
	// ConfigPath is the absolute path of the configuration file.
	ConfigPath string
	// Dir is the directory holding the configuration file; relative paths
	// in the file are relative to it.
	Dir string
	// Env is the environment chosen with --env (or CLOUDFLARE_ENV); empty
	// for the top level.
	Env string
	// Name is the worker's name. In an environment that does not set its
	// own name it is "<top-level name>-<env>", as wrangler names it.
	Name string
	// Main is the absolute path of the entry module. Empty only for an
	// assets-only worker (assets.directory set, no main), which wrangler
	// allows too.
	Main string
	// CompatibilityDate is compatibility_date (YYYY-MM-DD); empty when the
	// file has none (Load then warns, as wrangler dev does).
	CompatibilityDate string
	// CompatibilityFlags is compatibility_flags, as written.
	CompatibilityFlags []string

	// Vars is vars: a string stays a string, any other JSON or TOML value
	// (object, array, number, boolean) is kept as map[string]any, []any,
	// float64 or bool. Secrets of the same name take precedence: see
	// EnvVars.
	Vars map[string]any
	// Secrets are the values of .dev.vars (or .dev.vars.<env>, or the .env
	// files when there is no .dev.vars), which wrangler binds as secret
	// text. Empty map when there are none.
	Secrets map[string]string
	// SecretsFrom lists the files Secrets were read from, in the order
	// they were read.
	SecretsFrom []string
	// RequiredSecrets is secrets.required: the secret names the worker
	// needs. When set, only those names (and names of Vars) are taken from
	// the secrets files, and a missing one is a warning.
	RequiredSecrets []string

	// KVNamespaces is kv_namespaces.
	KVNamespaces []KVNamespace
	// R2Buckets is r2_buckets.
	R2Buckets []R2Bucket
	// D1Databases is d1_databases.
	D1Databases []D1Database
	// DurableObjects is durable_objects.bindings.
	DurableObjects []DurableObjectBinding
	// Migrations is migrations, in order. ClassNamespaces and
	// DeletedClasses replay them.
	Migrations []Migration
	// Queues is queues.
	Queues Queues
	// Services is services.
	Services []Service
	// Crons is triggers.crons, as written; dwk checks the expressions when
	// it schedules them.
	Crons []string
	// Assets is assets; nil when the worker has none.
	Assets *Assets

	// CPULimit is limits.cpu_ms: the CPU time one event may use. Zero:
	// dwk's default (30 s, as Cloudflare's).
	CPULimit time.Duration

	// Build is build: the custom build command run before bundling.
	Build Build
	// Bundle holds the keys that change how the worker is bundled.
	Bundle Bundle

	// Warnings are the things Load noticed but did not refuse: keys dwk
	// ignores, missing recommended keys, environment keys that are not
	// inherited. They name the file and the key path.
	Warnings []Problem
}

// KVNamespace is one kv_namespaces entry.
type KVNamespace struct {
	// Binding is the name the worker reads it by (env.Binding).
	Binding string
	// ID is id: the namespace's id on Cloudflare. Optional; dwk keys the
	// namespace's data by ID when set, else by Binding, as wrangler dev
	// does.
	ID string
	// PreviewID is preview_id, the namespace wrangler dev used remotely.
	PreviewID string
}

// R2Bucket is one r2_buckets entry.
type R2Bucket struct {
	// Binding is the name the worker reads it by.
	Binding string
	// BucketName is bucket_name (required by dwk, which keeps the bucket's
	// objects under it).
	BucketName string
	// PreviewBucketName is preview_bucket_name.
	PreviewBucketName string
}

// D1Database is one d1_databases entry.
type D1Database struct {
	// Binding is the name the worker reads it by.
	Binding string
	// DatabaseName is database_name (required by dwk, which keeps the
	// database under it).
	DatabaseName string
	// DatabaseID is database_id.
	DatabaseID string
	// PreviewDatabaseID is preview_database_id.
	PreviewDatabaseID string
	// MigrationsDir is migrations_dir, absolute. Default: "migrations"
	// next to the configuration file.
	MigrationsDir string
	// MigrationsTable is migrations_table. Default: "d1_migrations".
	MigrationsTable string
	// MigrationsPattern is migrations_pattern, the glob that finds the
	// migration files, absolute. Default: "*.sql" in MigrationsDir.
	MigrationsPattern string
}

// DurableObjectBinding is one durable_objects.bindings entry.
type DurableObjectBinding struct {
	// Name is the name the worker reads the namespace by.
	Name string
	// ClassName is class_name: the exported class.
	ClassName string
	// ScriptName is script_name: the worker that defines the class, when
	// it is another one. Empty: this worker.
	ScriptName string
	// Environment is environment: the environment of ScriptName.
	Environment string
}

// Migration is one migrations entry. Load checks the sequence: tags are
// unique, a class is created once, renamed or deleted only while it
// exists.
type Migration struct {
	// Tag names the migration.
	Tag string
	// NewClasses is new_classes: classes created with key-value storage.
	NewClasses []string
	// NewSQLiteClasses is new_sqlite_classes: classes created with SQLite
	// storage.
	NewSQLiteClasses []string
	// RenamedClasses is renamed_classes.
	RenamedClasses []RenamedClass
	// DeletedClasses is deleted_classes: their objects and storage go.
	DeletedClasses []string
}

// RenamedClass is one renamed_classes entry.
type RenamedClass struct {
	// From is the class's name before the migration.
	From string
	// To is its name after.
	To string
}

// Queues is the queues key.
type Queues struct {
	// Producers is queues.producers.
	Producers []QueueProducer
	// Consumers is queues.consumers.
	Consumers []QueueConsumer
}

// QueueProducer is one queues.producers entry.
type QueueProducer struct {
	// Binding is the name the worker sends by.
	Binding string
	// Queue is queue: the queue's name (required by dwk).
	Queue string
	// DeliveryDelay is delivery_delay in seconds (0 to 43200). Wrangler
	// deprecates it in the configuration and warns; dwk still applies it
	// as the producer's default delay.
	DeliveryDelay int
}

// QueueConsumer is one queues.consumers entry. Defaults are Cloudflare's
// (not miniflare's smaller ones), since dwk serves production traffic.
type QueueConsumer struct {
	// Queue is the queue consumed.
	Queue string
	// MaxBatchSize is max_batch_size, 1 to 100. Default: 10.
	MaxBatchSize int
	// MaxBatchTimeout is max_batch_timeout in seconds, 0 to 60. Default: 5.
	MaxBatchTimeout int
	// MaxRetries is max_retries, 0 to 100. Default: 3.
	MaxRetries int
	// DeadLetterQueue is dead_letter_queue; empty for none.
	DeadLetterQueue string
	// MaxConcurrency is max_concurrency; 0 means as many as needed.
	MaxConcurrency int
	// RetryDelay is retry_delay in seconds (0 to 43200). Default: 0.
	RetryDelay int
}

// Service is one services entry: a binding to another worker.
type Service struct {
	// Binding is the name the worker calls it by.
	Binding string
	// Service is service: the other worker's name.
	Service string
	// Entrypoint is entrypoint: a named export of that worker; empty for
	// its default export.
	Entrypoint string
	// Environment is environment (deprecated by wrangler; it prefers
	// service = "<worker>-<env>").
	Environment string
	// Props is props, handed to the callee as ctx.props; nil when unset.
	Props map[string]any
}

// Assets is the assets key: static files served in front of the worker.
type Assets struct {
	// Directory is directory, absolute (required).
	Directory string
	// Binding is binding: the name the worker fetches assets by; empty
	// for none.
	Binding string
	// NotFoundHandling is not_found_handling: "none", "404-page" or
	// "single-page-application". Default: "none".
	NotFoundHandling string
	// HTMLHandling is html_handling: "auto-trailing-slash",
	// "force-trailing-slash", "drop-trailing-slash" or "none". Default:
	// "auto-trailing-slash".
	HTMLHandling string
	// RunWorkerFirst is run_worker_first when it is a boolean (or the
	// legacy experimental_serve_directly = false). Default: false.
	RunWorkerFirst bool
	// RunWorkerFirstRoutes is run_worker_first when it is an array of
	// route patterns ("/api/*", "!/api/docs"): requests matching them go
	// to the worker first.
	RunWorkerFirstRoutes []string
}

// Build is the build key.
type Build struct {
	// Command is command, run with sh -c; empty for no build step.
	Command string
	// Cwd is cwd, absolute. Default: the configuration file's directory.
	Cwd string
	// WatchDirs is watch_dir (a string or an array), absolute. Default:
	// "src" next to the configuration file.
	WatchDirs []string
}

// Bundle holds the keys that change how the worker's modules are bundled.
type Bundle struct {
	// Rules is rules: which files import as which module type, in order.
	Rules []Rule
	// FindAdditionalModules is find_additional_modules: also ship the
	// files under BaseDir that Rules match. Default: false (wrangler: true
	// when no_bundle is set).
	FindAdditionalModules bool
	// BaseDir is base_dir, absolute. Default: the directory of Main.
	BaseDir string
	// PreserveFileNames is preserve_file_names. Default: false.
	PreserveFileNames bool
	// NoBundle is no_bundle: do not bundle; Main and the modules Rules
	// find are loaded as they are. Default: false.
	NoBundle bool
	// Define is define: identifiers replaced by expressions (esbuild's
	// define).
	Define map[string]string
	// Alias is alias: module specifiers replaced by others (esbuild's
	// alias). Top level only, so every environment shares it.
	Alias map[string]string
	// TSConfig is tsconfig, absolute; empty to let the bundler look for
	// tsconfig.json.
	TSConfig string
	// JSXFactory is jsx_factory. Default: "React.createElement".
	JSXFactory string
	// JSXFragment is jsx_fragment. Default: "React.Fragment".
	JSXFragment string
	// Minify is minify. Default: false.
	Minify bool
	// KeepNames is keep_names: keep function and class names through
	// minification. Default: true.
	KeepNames bool
}

// Rule is one rules entry.
type Rule struct {
	// Type is "ESModule", "CommonJS", "Text", "Data" or "CompiledWasm".
	Type string
	// Globs are the file patterns the rule matches.
	Globs []string
	// Fallthrough is fallthrough: later rules of the same type still
	// apply.
	Fallthrough bool
}
