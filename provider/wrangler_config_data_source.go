package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/appliance/jsworker/project"
	"github.com/dwk/fleet/appliance/jsworker/wrangler"
)

// wranglerConfigDataSource is dwk_wrangler_config: a Workers project's
// wrangler file, read as dwk reads it, so that HCL can create and wire
// what the file declares without repeating it.
type wranglerConfigDataSource struct{}

var _ datasource.DataSource = (*wranglerConfigDataSource)(nil)

// NewWranglerConfigDataSource returns dwk_wrangler_config.
func NewWranglerConfigDataSource() datasource.DataSource { return &wranglerConfigDataSource{} }

type wranglerConfigModel struct {
	Path               types.String           `tfsdk:"path"`
	Env                types.String           `tfsdk:"env"`
	ConfigPath         types.String           `tfsdk:"config_path"`
	ConfigHash         types.String           `tfsdk:"config_hash"`
	Name               types.String           `tfsdk:"name"`
	Main               types.String           `tfsdk:"main"`
	CompatibilityDate  types.String           `tfsdk:"compatibility_date"`
	CompatibilityFlags []string               `tfsdk:"compatibility_flags"`
	Vars               map[string]string      `tfsdk:"vars"`
	RequiredSecrets    []string               `tfsdk:"required_secrets"`
	D1Databases        []wranglerD1Model      `tfsdk:"d1_databases"`
	R2Buckets          []wranglerR2Model      `tfsdk:"r2_buckets"`
	KVNamespaces       []wranglerKVModel      `tfsdk:"kv_namespaces"`
	QueueProducers     []wranglerProducer     `tfsdk:"queue_producers"`
	QueueConsumers     []wranglerConsumer     `tfsdk:"queue_consumers"`
	DurableObjects     []wranglerObjectModel  `tfsdk:"durable_objects"`
	Services           []wranglerServiceModel `tfsdk:"services"`
	Crons              []string               `tfsdk:"crons"`
	AssetsDirectory    types.String           `tfsdk:"assets_directory"`
}

type wranglerD1Model struct {
	Binding       string `tfsdk:"binding"`
	DatabaseName  string `tfsdk:"database_name"`
	Store         string `tfsdk:"store"`
	DatabaseID    string `tfsdk:"database_id"`
	MigrationsDir string `tfsdk:"migrations_dir"`
}

type wranglerR2Model struct {
	Binding    string `tfsdk:"binding"`
	BucketName string `tfsdk:"bucket_name"`
}

type wranglerKVModel struct {
	Binding string `tfsdk:"binding"`
	ID      string `tfsdk:"id"`
}

type wranglerProducer struct {
	Binding string `tfsdk:"binding"`
	Queue   string `tfsdk:"queue"`
}

type wranglerConsumer struct {
	Queue           string `tfsdk:"queue"`
	MaxBatchSize    int64  `tfsdk:"max_batch_size"`
	MaxRetries      int64  `tfsdk:"max_retries"`
	DeadLetterQueue string `tfsdk:"dead_letter_queue"`
}

type wranglerObjectModel struct {
	Name       string `tfsdk:"name"`
	ClassName  string `tfsdk:"class_name"`
	ScriptName string `tfsdk:"script_name"`
}

type wranglerServiceModel struct {
	Binding     string `tfsdk:"binding"`
	Service     string `tfsdk:"service"`
	Entrypoint  string `tfsdk:"entrypoint"`
	Environment string `tfsdk:"environment"`
}

func (d *wranglerConfigDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_wrangler_config"
}

func (d *wranglerConfigDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Computed: true}
	}
	strs := func(desc string) schema.ListAttribute {
		return schema.ListAttribute{MarkdownDescription: desc, Computed: true, ElementType: types.StringType}
	}
	nested := func(desc string, attrs map[string]schema.Attribute) schema.ListNestedAttribute {
		return schema.ListNestedAttribute{MarkdownDescription: desc, Computed: true, NestedObject: schema.NestedAttributeObject{Attributes: attrs}}
	}
	num := func(desc string) schema.Int64Attribute {
		return schema.Int64Attribute{MarkdownDescription: desc, Computed: true}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A Workers project's wrangler file (`wrangler.toml`, `wrangler.json` or `wrangler.jsonc`), read and checked " +
			"as `dwk serve` reads it, for one environment. Use it to create the D1 databases, buckets, KV namespaces and queues the " +
			"file declares, and to wire them to a fleet by binding name, without repeating them in HCL. The file's mistakes are " +
			"errors that name the key and what to fix. Secrets are never read into the state: `.dev.vars` is ignored, and only " +
			"the names in `secrets.required` are exported.",
		Attributes: map[string]schema.Attribute{
			"path": schema.StringAttribute{
				MarkdownDescription: "The wrangler file, or the project directory holding one (the file `dwk serve` picks there). " +
					"Relative to Terraform's working directory: use `path.module`.",
				Required: true,
			},
			"env": schema.StringAttribute{
				MarkdownDescription: "The environment to read (wrangler's `--env`), which inherits and overrides the top level as in wrangler. Default: the top level.",
				Optional:            true,
			},
			"config_path":         str("The wrangler file read, absolute."),
			"config_hash":         str("SHA-256 of the wrangler file's bytes, hex: it changes when the file does."),
			"name":                str("The worker's name; in an environment without its own name, `<name>-<env>`, as wrangler names it."),
			"main":                str("The entry module, absolute; empty for an assets-only worker."),
			"compatibility_date":  str("`compatibility_date`."),
			"compatibility_flags": strs("`compatibility_flags`."),
			"vars": schema.MapAttribute{
				MarkdownDescription: "`vars`: strings as they are, other values (numbers, objects) as JSON.",
				Computed:            true, ElementType: types.StringType,
			},
			"required_secrets": strs("`secrets.required`: the names of the secrets the worker needs. Their values are never read."),
			"d1_databases": nested("`d1_databases`.", map[string]schema.Attribute{
				"binding":       str("The name the worker reads it by."),
				"database_name": str("`database_name`."),
				"store": str("The dwk D1 database the binding opens: `database_name` lower-cased, each character outside `a-z`, `0-9`, `_` " +
					"and `-` made `-` (as `dwk serve` names it). Give it to `provider::dwk::d1_database` and `dwk_d1_migrations`."),
				"database_id":    str("`database_id`; empty when the file has none."),
				"migrations_dir": str("`migrations_dir`, absolute (default `migrations` next to the file)."),
			}),
			"r2_buckets": nested("`r2_buckets`.", map[string]schema.Attribute{
				"binding":     str("The name the worker reads it by."),
				"bucket_name": str("`bucket_name`."),
			}),
			"kv_namespaces": nested("`kv_namespaces`.", map[string]schema.Attribute{
				"binding": str("The name the worker reads it by."),
				"id":      str("`id`; empty when the file has none."),
			}),
			"queue_producers": nested("`queues.producers`.", map[string]schema.Attribute{
				"binding": str("The name the worker sends by."),
				"queue":   str("The queue's name."),
			}),
			"queue_consumers": nested("`queues.consumers`, with Cloudflare's defaults filled in.", map[string]schema.Attribute{
				"queue":             str("The queue consumed."),
				"max_batch_size":    num("`max_batch_size`."),
				"max_retries":       num("`max_retries`."),
				"dead_letter_queue": str("`dead_letter_queue`; empty for none."),
			}),
			"durable_objects": nested("`durable_objects.bindings`.", map[string]schema.Attribute{
				"name":        str("The name the worker reads the namespace by."),
				"class_name":  str("The exported class."),
				"script_name": str("The worker that defines the class, when another one; empty for this one."),
			}),
			"services": nested("`services`.", map[string]schema.Attribute{
				"binding":     str("The name the worker calls it by."),
				"service":     str("The worker called."),
				"entrypoint":  str("The named entrypoint; empty for the default export."),
				"environment": str("The called worker's environment; empty for its top level."),
			}),
			"crons":            strs("`triggers.crons`."),
			"assets_directory": str("`assets.directory`, absolute; empty when the worker has no assets."),
		},
	}
}

func (d *wranglerConfigDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m wranglerConfigModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	file := m.Path.ValueString()
	if fi, err := os.Stat(file); err == nil && fi.IsDir() {
		found, err := wrangler.Find(file)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("path"), "No wrangler file", err.Error())
			return
		}
		file = found
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("path"), "Cannot read the wrangler file", err.Error())
		return
	}
	// Secrets stay out of the state: no secrets file is read.
	p, err := wrangler.Load(file, wrangler.Options{Env: m.Env.ValueString(), NoSecrets: true})
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("path"), "The wrangler file has errors", err.Error())
		return
	}
	sum := sha256.Sum256(raw)
	m.ConfigPath = types.StringValue(p.ConfigPath)
	m.ConfigHash = types.StringValue(hex.EncodeToString(sum[:]))
	resp.Diagnostics.Append(fillWrangler(&m, p)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// fillWrangler copies a loaded project into the data source's model.
func fillWrangler(m *wranglerConfigModel, p *wrangler.Project) (diags diag.Diagnostics) {
	m.Name = types.StringValue(p.Name)
	m.Main = types.StringValue(p.Main)
	m.CompatibilityDate = types.StringValue(p.CompatibilityDate)
	m.CompatibilityFlags = nonNil(p.CompatibilityFlags)
	m.RequiredSecrets = nonNil(p.RequiredSecrets)
	m.Crons = nonNil(p.Crons)
	m.Vars = map[string]string{}
	for k, v := range p.Vars {
		if s, ok := v.(string); ok {
			m.Vars[k] = s
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			diags.AddError("A var cannot be written as JSON", k+": "+err.Error())
			continue
		}
		m.Vars[k] = string(b)
	}
	m.D1Databases = []wranglerD1Model{}
	for _, db := range p.D1Databases {
		store, err := project.StoreName(db.DatabaseName)
		if err != nil {
			diags.AddAttributeError(path.Root("path"), "Invalid D1 database name", fmt.Sprintf("d1_databases %s: %v", db.Binding, err))
			return diags
		}
		m.D1Databases = append(m.D1Databases, wranglerD1Model{Binding: db.Binding, DatabaseName: db.DatabaseName, Store: store, DatabaseID: db.DatabaseID, MigrationsDir: db.MigrationsDir})
	}
	m.R2Buckets = []wranglerR2Model{}
	for _, b := range p.R2Buckets {
		m.R2Buckets = append(m.R2Buckets, wranglerR2Model{Binding: b.Binding, BucketName: b.BucketName})
	}
	m.KVNamespaces = []wranglerKVModel{}
	for _, kv := range p.KVNamespaces {
		m.KVNamespaces = append(m.KVNamespaces, wranglerKVModel{Binding: kv.Binding, ID: kv.ID})
	}
	m.QueueProducers = []wranglerProducer{}
	for _, q := range p.Queues.Producers {
		m.QueueProducers = append(m.QueueProducers, wranglerProducer{Binding: q.Binding, Queue: q.Queue})
	}
	m.QueueConsumers = []wranglerConsumer{}
	for _, c := range p.Queues.Consumers {
		m.QueueConsumers = append(m.QueueConsumers, wranglerConsumer{Queue: c.Queue, MaxBatchSize: int64(c.MaxBatchSize), MaxRetries: int64(c.MaxRetries), DeadLetterQueue: c.DeadLetterQueue})
	}
	m.DurableObjects = []wranglerObjectModel{}
	for _, o := range p.DurableObjects {
		m.DurableObjects = append(m.DurableObjects, wranglerObjectModel{Name: o.Name, ClassName: o.ClassName, ScriptName: o.ScriptName})
	}
	m.Services = []wranglerServiceModel{}
	for _, s := range p.Services {
		m.Services = append(m.Services, wranglerServiceModel{Binding: s.Binding, Service: s.Service, Entrypoint: s.Entrypoint, Environment: s.Environment})
	}
	m.AssetsDirectory = types.StringValue("")
	if p.Assets != nil {
		m.AssetsDirectory = types.StringValue(filepath.Clean(p.Assets.Directory))
	}
	sort.Strings(m.RequiredSecrets)
	return diags
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
