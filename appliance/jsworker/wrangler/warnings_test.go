package wrangler

import (
	"path/filepath"
	"testing"
)

// TestWarnings covers what Load accepts but reports.
func TestWarnings(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"nothing to say", minimal, nil},
		{"no compatibility date", "name = \"w\"\nmain = \"i.js\"\n", []string{
			`wrangler.toml: compatibility_date: is not set, so the runtime uses its default date, as wrangler dev does; set it to the date the worker was written for, such as "2025-01-15"`,
		}},
		{"unknown compatibility flag", minimal + "compatibility_flags = [\"nodejs_compat\", \"streams_enable_constructors\"]\n", []string{
			`wrangler.toml: compatibility_flags[1]: dwk does not know the flag "streams_enable_constructors": it is passed to the runtime, which may behave as if it were not set`,
		}},
		{"keys inside entries", minimal +
			"[[kv_namespaces]]\nbinding = \"KV\"\nremote = true\n" +
			"[[r2_buckets]]\nbinding = \"R2\"\nbucket_name = \"files\"\njurisdiction = \"eu\"\n" +
			"[[d1_databases]]\nbinding = \"DB\"\ndatabase_name = \"d\"\ndatabase_internal_env = \"x\"\n" +
			"[[queues.producers]]\nbinding = \"Q\"\nqueue = \"q\"\ndelivery_delay = 30\n" +
			"[[queues.consumers]]\nqueue = \"q\"\nvisibility_timeout_ms = 1000\n", []string{
			`wrangler.toml: kv_namespaces[0].remote: ignored by dwk: dwk serves every binding itself; there are no remote bindings`,
			`wrangler.toml: r2_buckets[0].jurisdiction: ignored by dwk: dwk keeps the bucket where dwk.json says`,
			`wrangler.toml: d1_databases[0].database_internal_env: ignored by dwk: it is an internal Cloudflare setting`,
			`wrangler.toml: queues.producers[0].delivery_delay: deprecated by wrangler, which warns that it has no effect on Cloudflare; dwk applies it, as wrangler dev does`,
			`wrangler.toml: queues.consumers[0].visibility_timeout_ms: ignored by dwk: it applies to pull consumers; dwk's consumers are workers`,
		}},
		{"legacy serve directly", minimal + "[assets]\ndirectory = \"public\"\nexperimental_serve_directly = false\n", []string{
			`wrangler.toml: assets.experimental_serve_directly: deprecated: wrangler v4 replaced it with run_worker_first = true; dwk reads it as that`,
		}},
		{"$schema says nothing", `{"$schema": "node_modules/wrangler/config-schema.json", "name": "w", "main": "i.js", "compatibility_date": "2025-01-15"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := "wrangler.toml"
			if tt.src[0] == '{' {
				file = "wrangler.json"
			}
			p, err := load(t, file, tt.src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range p.Warnings {
				got = append(got, w.String())
			}
			if d := diff(got, tt.want); d != "" {
				t.Errorf("warnings%s", d)
			}
		})
	}
}

// TestDefaultsAndResolution covers the values Load fills in.
func TestDefaultsAndResolution(t *testing.T) {
	p, err := load(t, "wrangler.toml", minimal+
		"no_bundle = true\nbase_dir = \"/abs/base\"\n"+
		"[assets]\ndirectory = \"public\"\nexperimental_serve_directly = false\n"+
		"[build]\ncommand = \"make\"\ncwd = \"sub\"\nwatch_dir = \"lib\"\n"+
		"[[queues.consumers]]\nqueue = \"q\"\n"+
		"[[d1_databases]]\nbinding = \"DB\"\ndatabase_name = \"d\"\nmigrations_dir = \"sql\"\nmigrations_pattern = \"sql/*/up.sql\"\nmigrations_table = \"m\"\n", Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := p.Dir
	if !p.Bundle.FindAdditionalModules || p.Bundle.BaseDir != "/abs/base" || !p.Bundle.KeepNames {
		t.Errorf("Bundle = %+v: no_bundle implies find_additional_modules; base_dir absolute stays; keep_names defaults to true", p.Bundle)
	}
	if p.Assets == nil || !p.Assets.RunWorkerFirst || p.Assets.HTMLHandling != "auto-trailing-slash" || p.Assets.NotFoundHandling != "none" {
		t.Errorf("Assets = %+v", p.Assets)
	}
	wantBuild := Build{Command: "make", Cwd: filepath.Join(dir, "sub"), WatchDirs: []string{filepath.Join(dir, "lib")}}
	if d := diff(p.Build, wantBuild); d != "" {
		t.Errorf("Build%s", d)
	}
	wantConsumer := QueueConsumer{Queue: "q", MaxBatchSize: 10, MaxBatchTimeout: 5, MaxRetries: 3}
	if d := diff(p.Queues.Consumers, []QueueConsumer{wantConsumer}); d != "" {
		t.Errorf("Consumers%s", d)
	}
	wantD1 := D1Database{Binding: "DB", DatabaseName: "d", MigrationsDir: filepath.Join(dir, "sql"), MigrationsTable: "m", MigrationsPattern: filepath.Join(dir, "sql/*/up.sql")}
	if d := diff(p.D1Databases, []D1Database{wantD1}); d != "" {
		t.Errorf("D1Databases%s", d)
	}
	if want := filepath.Join(dir, "index.js"); p.Main != want {
		t.Errorf("Main = %q, want %q", p.Main, want)
	}
}

func TestAssetsOnlyWorker(t *testing.T) {
	p, err := load(t, "wrangler.json", `{"name": "site", "compatibility_date": "2025-01-15", "assets": {"directory": "dist"}}`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Main != "" || p.Assets == nil || p.Assets.Directory != filepath.Join(p.Dir, "dist") {
		t.Errorf("got Main %q, Assets %+v; want no main and the dist directory", p.Main, p.Assets)
	}
}

func TestNullMaxConcurrency(t *testing.T) {
	p, err := load(t, "wrangler.json", `{"name": "w", "main": "i.js", "compatibility_date": "2025-01-15",
		"queues": {"consumers": [{"queue": "a", "max_concurrency": null}, {"queue": "b", "max_concurrency": 4}]}}`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := p.Queues.Consumers; c[0].MaxConcurrency != 0 || c[1].MaxConcurrency != 4 {
		t.Errorf("MaxConcurrency = %d, %d; want 0 (unbounded) and 4", c[0].MaxConcurrency, c[1].MaxConcurrency)
	}
}

func TestServices(t *testing.T) {
	p, err := load(t, "wrangler.jsonc", `{"name": "w", "main": "i.js", "compatibility_date": "2025-01-15",
		"services": [
			{"binding": "AUTH", "service": "auth", "entrypoint": "Admin", "props": {"role": "admin", "level": 2}},
			{"binding": "OLD", "service": "legacy", "environment": "production"},
		]}`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Service{
		{Binding: "AUTH", Service: "auth", Entrypoint: "Admin", Props: map[string]any{"role": "admin", "level": 2.0}},
		{Binding: "OLD", Service: "legacy", Environment: "production"},
	}
	if d := diff(p.Services, want); d != "" {
		t.Errorf("Services%s", d)
	}
}
