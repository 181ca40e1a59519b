package wrangler

import (
	"path/filepath"
	"testing"
)

// formats are the three fixtures of one project, one per file format.
var formats = []string{"testdata/toml/wrangler.toml", "testdata/json/wrangler.json", "testdata/jsonc/wrangler.jsonc"}

// wantChat is the top level of the fixture project in dir.
func wantChat(dir string) Project {
	at := func(p string) string { return filepath.Join(dir, p) }
	return Project{
		Dir:                dir,
		Name:               "chat",
		Main:               at("src/index.ts"),
		CompatibilityDate:  "2025-01-15",
		CompatibilityFlags: []string{"nodejs_compat"},
		Vars: map[string]any{
			"GREETING": "hello",
			"LIMITS":   map[string]any{"max": 10.0, "names": []any{"a", "b"}},
		},
		Secrets:      map[string]string{"API_KEY": "top-secret", "TOKEN": "line one\nline two"},
		SecretsFrom:  []string{at(".dev.vars")},
		KVNamespaces: []KVNamespace{{Binding: "CACHE", ID: "kv-id"}},
		R2Buckets:    []R2Bucket{{Binding: "FILES", BucketName: "chat-files"}},
		D1Databases: []D1Database{{
			Binding: "DB", DatabaseName: "chat-db", DatabaseID: "d1-id",
			MigrationsDir: at("db/migrations"), MigrationsTable: "d1_migrations",
			MigrationsPattern: at("db/migrations/*.sql"),
		}},
		DurableObjects: []DurableObjectBinding{{Name: "ROOMS", ClassName: "Room"}},
		Migrations: []Migration{
			{Tag: "v1", NewSQLiteClasses: []string{"ChatRoom"}},
			{Tag: "v2", RenamedClasses: []RenamedClass{{From: "ChatRoom", To: "Room"}}},
		},
		Queues: Queues{
			Producers: []QueueProducer{{Binding: "NOTIFY", Queue: "notifications"}},
			Consumers: []QueueConsumer{{
				Queue: "notifications", MaxBatchSize: 50, MaxBatchTimeout: 5, MaxRetries: 3,
				DeadLetterQueue: "notifications-dlq",
			}},
		},
		Services: []Service{{Binding: "AUTH", Service: "auth-worker", Entrypoint: "Auth"}},
		Crons:    []string{"*/5 * * * *"},
		Assets: &Assets{
			Directory: at("public"), Binding: "ASSETS",
			NotFoundHandling: "single-page-application", HTMLHandling: "auto-trailing-slash",
			RunWorkerFirstRoutes: []string{"/api/*"},
		},
		Build: Build{Command: "npm run build", Cwd: dir, WatchDirs: []string{at("src"), at("lib")}},
		Bundle: Bundle{
			Rules:       []Rule{{Type: "Text", Globs: []string{"**/*.txt"}, Fallthrough: true}},
			BaseDir:     at("src"),
			Define:      map[string]string{"__VERSION__": `"1.0"`},
			Alias:       map[string]string{"node-fetch": "./src/fetch-shim.ts"},
			TSConfig:    at("tsconfig.worker.json"),
			JSXFactory:  "React.createElement",
			JSXFragment: "React.Fragment",
			Minify:      true,
			KeepNames:   true,
		},
	}
}

// wantChatStaging is the fixture project's staging environment: the
// inherited keys of the top level, its own vars and D1 database, none of
// the top level's other bindings.
func wantChatStaging(dir string) Project {
	p := wantChat(dir)
	p.Env = "staging"
	p.Name = "chat-staging"
	p.Vars = map[string]any{"GREETING": "hello from staging"}
	p.Secrets = map[string]string{"API_KEY": "staging-secret"}
	p.SecretsFrom = []string{filepath.Join(dir, ".dev.vars.staging")}
	p.D1Databases = []D1Database{{
		Binding: "DB", DatabaseName: "chat-db-staging",
		MigrationsDir: filepath.Join(dir, "migrations"), MigrationsTable: "d1_migrations",
		MigrationsPattern: filepath.Join(dir, "migrations/*.sql"),
	}}
	p.KVNamespaces, p.R2Buckets, p.DurableObjects, p.Services = nil, nil, nil, nil
	p.Queues = Queues{}
	p.Bundle.Define = nil
	return p
}

func TestLoadEveryFormat(t *testing.T) {
	tests := []struct {
		env          string
		want         func(dir string) Project
		warningPaths []string
	}{
		{"", wantChat, []string{"account_id", "workers_dev"}},
		{"staging", wantChatStaging, []string{
			"account_id", "workers_dev",
			"env.staging", "env.staging", "env.staging", "env.staging", "env.staging", "env.staging",
			"env.staging.vars",
		}},
	}
	for _, f := range formats {
		for _, tt := range tests {
			t.Run(f+"/"+tt.env, func(t *testing.T) {
				got, err := Load(f, Options{Env: tt.env})
				if err != nil {
					t.Fatalf("Load: %v", err)
				}
				abs, _ := filepath.Abs(f)
				want := tt.want(filepath.Dir(abs))
				want.ConfigPath = abs
				var paths []string
				for _, w := range got.Warnings {
					if w.File != filepath.Base(f) {
						t.Errorf("warning %q names file %q, want %q", w, w.File, filepath.Base(f))
					}
					paths = append(paths, w.Path)
				}
				if d := diff(paths, tt.warningPaths); d != "" {
					t.Errorf("warning paths %s; warnings: %q", d, got.Warnings)
				}
				got.Warnings = nil
				if d := diff(*got, want); d != "" {
					t.Errorf("Project%s", d)
				}
			})
		}
	}
}

func TestLoadStagingWarnings(t *testing.T) {
	p, err := Load("testdata/toml/wrangler.toml", Options{Env: "staging"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"wrangler.toml: account_id: ignored by dwk: dwk has no Cloudflare account",
		"wrangler.toml: workers_dev: ignored by dwk: dwk serves the worker on the routes in dwk.json; there is no workers.dev subdomain",
		`wrangler.toml: env.staging: "kv_namespaces" is set at the top level but not in this environment, and environments do not inherit it: the worker gets none; add "kv_namespaces" to env.staging if it needs it`,
		`wrangler.toml: env.staging: "r2_buckets" is set at the top level but not in this environment, and environments do not inherit it: the worker gets none; add "r2_buckets" to env.staging if it needs it`,
		`wrangler.toml: env.staging: "durable_objects" is set at the top level but not in this environment, and environments do not inherit it: the worker gets none; add "durable_objects" to env.staging if it needs it`,
		`wrangler.toml: env.staging: "queues" is set at the top level but not in this environment, and environments do not inherit it: the worker gets none; add "queues" to env.staging if it needs it`,
		`wrangler.toml: env.staging: "services" is set at the top level but not in this environment, and environments do not inherit it: the worker gets none; add "services" to env.staging if it needs it`,
		`wrangler.toml: env.staging: "define" is set at the top level but not in this environment, and environments do not inherit it: the worker gets none; add "define" to env.staging if it needs it`,
		`wrangler.toml: env.staging.vars: "LIMITS" is in the top level's vars but not here, and environments do not inherit it`,
	}
	var got []string
	for _, w := range p.Warnings {
		got = append(got, w.String())
	}
	if d := diff(got, want); d != "" {
		t.Errorf("warnings%s", d)
	}
}
