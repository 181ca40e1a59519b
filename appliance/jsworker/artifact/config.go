package artifact

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/jsworker/wrangler"
)

// Config is a resolved wrangler project (wrangler.Project) as the
// manifest records it: what the runtime and the store commands read.
// Paths are slash-separated and relative to the archive's root. Secret
// values, the secrets files, the build command and the bundler's
// settings are left out: the code is bundled already, and secrets are
// never in an artifact.
type Config struct {
	// Env is the wrangler environment the project was bundled for; empty
	// for the top level.
	Env string `json:"env,omitempty"`
	// Main is the entry's member: always "worker.js".
	Main string `json:"main"`
	// CompatibilityDate is compatibility_date.
	CompatibilityDate string `json:"compatibility_date,omitempty"`
	// CompatibilityFlags is compatibility_flags.
	CompatibilityFlags []string `json:"compatibility_flags,omitempty"`
	// Vars is vars, strings and JSON values as wrangler read them.
	Vars map[string]any `json:"vars,omitempty"`
	// SecretNames are the names of the secrets the secrets files
	// (.dev.vars, .env) held when the project was bundled, sorted. Their
	// values are not recorded: the host binds them.
	SecretNames []string `json:"secret_names,omitempty"`
	// RequiredSecrets is secrets.required.
	RequiredSecrets []string `json:"required_secrets,omitempty"`
	// KVNamespaces is kv_namespaces.
	KVNamespaces []KVNamespace `json:"kv_namespaces,omitempty"`
	// R2Buckets is r2_buckets.
	R2Buckets []R2Bucket `json:"r2_buckets,omitempty"`
	// D1Databases is d1_databases.
	D1Databases []D1Database `json:"d1_databases,omitempty"`
	// DurableObjects is durable_objects.bindings.
	DurableObjects []DurableObject `json:"durable_objects,omitempty"`
	// Migrations is migrations, in order.
	Migrations []Migration `json:"migrations,omitempty"`
	// Queues is queues; nil when the project has none.
	Queues *Queues `json:"queues,omitempty"`
	// Services is services.
	Services []Service `json:"services,omitempty"`
	// Crons is triggers.crons.
	Crons []string `json:"crons,omitempty"`
	// Assets is assets; nil when the worker has none.
	Assets *Assets `json:"assets,omitempty"`
	// CPUMs is limits.cpu_ms; 0 for dwk's default.
	CPUMs int64 `json:"cpu_ms,omitempty"`
}

// KVNamespace is one kv_namespaces entry.
type KVNamespace struct {
	Binding   string `json:"binding"`
	ID        string `json:"id,omitempty"`
	PreviewID string `json:"preview_id,omitempty"`
}

// R2Bucket is one r2_buckets entry.
type R2Bucket struct {
	Binding           string `json:"binding"`
	BucketName        string `json:"bucket_name"`
	PreviewBucketName string `json:"preview_bucket_name,omitempty"`
}

// D1Database is one d1_databases entry. Its migration files are the
// members under MigrationsDir.
type D1Database struct {
	Binding           string `json:"binding"`
	DatabaseName      string `json:"database_name"`
	DatabaseID        string `json:"database_id,omitempty"`
	PreviewDatabaseID string `json:"preview_database_id,omitempty"`
	// MigrationsDir is "migrations/<binding>".
	MigrationsDir string `json:"migrations_dir"`
	// MigrationsTable is migrations_table.
	MigrationsTable string `json:"migrations_table"`
	// MigrationsPattern is migrations_pattern under MigrationsDir:
	// "migrations/<binding>/*.sql" by default.
	MigrationsPattern string `json:"migrations_pattern"`
}

// DurableObject is one durable_objects.bindings entry.
type DurableObject struct {
	Name        string `json:"name"`
	ClassName   string `json:"class_name"`
	ScriptName  string `json:"script_name,omitempty"`
	Environment string `json:"environment,omitempty"`
}

// Migration is one migrations entry.
type Migration struct {
	Tag              string         `json:"tag"`
	NewClasses       []string       `json:"new_classes,omitempty"`
	NewSQLiteClasses []string       `json:"new_sqlite_classes,omitempty"`
	RenamedClasses   []RenamedClass `json:"renamed_classes,omitempty"`
	DeletedClasses   []string       `json:"deleted_classes,omitempty"`
}

// RenamedClass is one renamed_classes entry.
type RenamedClass struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Queues is queues.
type Queues struct {
	Producers []QueueProducer `json:"producers,omitempty"`
	Consumers []QueueConsumer `json:"consumers,omitempty"`
}

// QueueProducer is one queues.producers entry.
type QueueProducer struct {
	Binding       string `json:"binding"`
	Queue         string `json:"queue"`
	DeliveryDelay int    `json:"delivery_delay,omitempty"`
}

// QueueConsumer is one queues.consumers entry, defaults applied.
type QueueConsumer struct {
	Queue           string `json:"queue"`
	MaxBatchSize    int    `json:"max_batch_size"`
	MaxBatchTimeout int    `json:"max_batch_timeout"`
	MaxRetries      int    `json:"max_retries"`
	DeadLetterQueue string `json:"dead_letter_queue,omitempty"`
	MaxConcurrency  int    `json:"max_concurrency,omitempty"`
	RetryDelay      int    `json:"retry_delay,omitempty"`
}

// Service is one services entry.
type Service struct {
	Binding     string         `json:"binding"`
	Service     string         `json:"service"`
	Entrypoint  string         `json:"entrypoint,omitempty"`
	Environment string         `json:"environment,omitempty"`
	Props       map[string]any `json:"props,omitempty"`
}

// Assets is assets, defaults applied. Its files are the members under
// Directory.
type Assets struct {
	// Directory is "assets".
	Directory            string   `json:"directory"`
	Binding              string   `json:"binding,omitempty"`
	NotFoundHandling     string   `json:"not_found_handling"`
	HTMLHandling         string   `json:"html_handling"`
	RunWorkerFirst       bool     `json:"run_worker_first,omitempty"`
	RunWorkerFirstRoutes []string `json:"run_worker_first_routes,omitempty"`
}

// migrationsDir is the member directory of a D1 binding's migrations.
func migrationsDir(binding string) string { return MigrationsDir + "/" + binding }

// configOf records w, its paths made relative to the archive. The
// entries convert by struct conversion, so that a field added to a
// wrangler type fails to compile here until the format says what becomes
// of it.
func configOf(w *wrangler.Project) (Config, error) {
	c := Config{
		Env:                w.Env,
		Main:               ScriptEntry,
		CompatibilityDate:  w.CompatibilityDate,
		CompatibilityFlags: w.CompatibilityFlags,
		Vars:               w.Vars,
		RequiredSecrets:    w.RequiredSecrets,
		Crons:              w.Crons,
		CPUMs:              w.CPULimit.Milliseconds(),
	}
	for name := range w.Secrets {
		c.SecretNames = append(c.SecretNames, name)
	}
	sort.Strings(c.SecretNames)
	for _, k := range w.KVNamespaces {
		c.KVNamespaces = append(c.KVNamespaces, KVNamespace(k))
	}
	for _, r := range w.R2Buckets {
		c.R2Buckets = append(c.R2Buckets, R2Bucket(r))
	}
	for _, d := range w.D1Databases {
		pattern, err := relPattern(d)
		if err != nil {
			return Config{}, err
		}
		dir := migrationsDir(d.Binding)
		c.D1Databases = append(c.D1Databases, D1Database{
			Binding: d.Binding, DatabaseName: d.DatabaseName, DatabaseID: d.DatabaseID, PreviewDatabaseID: d.PreviewDatabaseID,
			MigrationsDir: dir, MigrationsTable: d.MigrationsTable, MigrationsPattern: dir + "/" + pattern,
		})
	}
	for _, d := range w.DurableObjects {
		c.DurableObjects = append(c.DurableObjects, DurableObject(d))
	}
	for _, m := range w.Migrations {
		cm := Migration{Tag: m.Tag, NewClasses: m.NewClasses, NewSQLiteClasses: m.NewSQLiteClasses, DeletedClasses: m.DeletedClasses}
		for _, r := range m.RenamedClasses {
			cm.RenamedClasses = append(cm.RenamedClasses, RenamedClass(r))
		}
		c.Migrations = append(c.Migrations, cm)
	}
	if q := w.Queues; len(q.Producers)+len(q.Consumers) > 0 {
		c.Queues = &Queues{}
		for _, p := range q.Producers {
			c.Queues.Producers = append(c.Queues.Producers, QueueProducer(p))
		}
		for _, qc := range q.Consumers {
			c.Queues.Consumers = append(c.Queues.Consumers, QueueConsumer(qc))
		}
	}
	for _, s := range w.Services {
		c.Services = append(c.Services, Service(s))
	}
	if a := w.Assets; a != nil {
		c.Assets = &Assets{
			Directory: AssetsDir, Binding: a.Binding, NotFoundHandling: a.NotFoundHandling, HTMLHandling: a.HTMLHandling,
			RunWorkerFirst: a.RunWorkerFirst, RunWorkerFirstRoutes: a.RunWorkerFirstRoutes,
		}
	}
	return c, nil
}

// relPattern is d's migrations_pattern relative to its migrations_dir,
// slash-separated.
func relPattern(d wrangler.D1Database) (string, error) {
	pattern, err := filepath.Rel(d.MigrationsDir, d.MigrationsPattern)
	if err != nil || !filepath.IsLocal(pattern) {
		return "", fmt.Errorf("d1_databases %s: migrations_pattern %s is not inside migrations_dir %s", d.Binding, d.MigrationsPattern, d.MigrationsDir)
	}
	return filepath.ToSlash(pattern), nil
}

// wranglerOf is c as a wrangler.Project named name, whose paths name
// members of the archive at root: root joined with the member's name.
// Its Dir and ConfigPath are root itself, its Secrets empty.
func wranglerOf(c Config, name, root string) *wrangler.Project {
	member := func(rel string) string {
		if root == "" {
			return filepath.FromSlash(rel)
		}
		return filepath.Join(root, filepath.FromSlash(rel))
	}
	w := &wrangler.Project{
		ConfigPath: root, Dir: root, Env: c.Env, Name: name, Main: member(c.Main),
		CompatibilityDate: c.CompatibilityDate, CompatibilityFlags: c.CompatibilityFlags,
		Vars: c.Vars, Secrets: map[string]string{}, RequiredSecrets: c.RequiredSecrets,
		Crons: c.Crons, CPULimit: time.Duration(c.CPUMs) * time.Millisecond,
	}
	for _, k := range c.KVNamespaces {
		w.KVNamespaces = append(w.KVNamespaces, wrangler.KVNamespace(k))
	}
	for _, r := range c.R2Buckets {
		w.R2Buckets = append(w.R2Buckets, wrangler.R2Bucket(r))
	}
	for _, d := range c.D1Databases {
		w.D1Databases = append(w.D1Databases, wrangler.D1Database{
			Binding: d.Binding, DatabaseName: d.DatabaseName, DatabaseID: d.DatabaseID, PreviewDatabaseID: d.PreviewDatabaseID,
			MigrationsDir: member(d.MigrationsDir), MigrationsTable: d.MigrationsTable, MigrationsPattern: member(d.MigrationsPattern),
		})
	}
	for _, d := range c.DurableObjects {
		w.DurableObjects = append(w.DurableObjects, wrangler.DurableObjectBinding(d))
	}
	for _, m := range c.Migrations {
		wm := wrangler.Migration{Tag: m.Tag, NewClasses: m.NewClasses, NewSQLiteClasses: m.NewSQLiteClasses, DeletedClasses: m.DeletedClasses}
		for _, r := range m.RenamedClasses {
			wm.RenamedClasses = append(wm.RenamedClasses, wrangler.RenamedClass(r))
		}
		w.Migrations = append(w.Migrations, wm)
	}
	if q := c.Queues; q != nil {
		for _, p := range q.Producers {
			w.Queues.Producers = append(w.Queues.Producers, wrangler.QueueProducer(p))
		}
		for _, qc := range q.Consumers {
			w.Queues.Consumers = append(w.Queues.Consumers, wrangler.QueueConsumer(qc))
		}
	}
	for _, s := range c.Services {
		w.Services = append(w.Services, wrangler.Service(s))
	}
	if a := c.Assets; a != nil {
		w.Assets = &wrangler.Assets{
			Directory: member(a.Directory), Binding: a.Binding, NotFoundHandling: a.NotFoundHandling, HTMLHandling: a.HTMLHandling,
			RunWorkerFirst: a.RunWorkerFirst, RunWorkerFirstRoutes: a.RunWorkerFirstRoutes,
		}
	}
	return w
}

// check verifies that c's paths are where the format puts them.
func (c Config) check() error {
	if c.Main != ScriptEntry {
		return fmt.Errorf("project.main is %q, want %q", c.Main, ScriptEntry)
	}
	if c.Assets != nil && c.Assets.Directory != AssetsDir {
		return fmt.Errorf("project.assets.directory is %q, want %q", c.Assets.Directory, AssetsDir)
	}
	for i, d := range c.D1Databases {
		dir := migrationsDir(d.Binding)
		if d.Binding == "" || strings.Contains(d.Binding, "/") || d.MigrationsDir != dir {
			return fmt.Errorf("project.d1_databases[%d].migrations_dir is %q, want %q", i, d.MigrationsDir, dir)
		}
		if rel, ok := strings.CutPrefix(d.MigrationsPattern, dir+"/"); !ok || rel == "" {
			return fmt.Errorf("project.d1_databases[%d].migrations_pattern is %q, want a pattern under %s/", i, d.MigrationsPattern, dir)
		}
	}
	return nil
}
