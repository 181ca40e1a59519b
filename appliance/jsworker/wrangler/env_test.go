package wrangler

import (
	"strings"
	"testing"
)

func TestEnvironments(t *testing.T) {
	const base = `{
		"name": "app", "main": "src/index.ts", "compatibility_date": "2025-01-15",
		"compatibility_flags": ["nodejs_compat"],
		"kv_namespaces": [{"binding": "KV", "id": "top"}],
		"triggers": {"crons": ["0 * * * *"]},
		"alias": {"a": "b"},
		"env": {
			"own": {"name": "own-name", "main": "src/own.ts", "kv_namespaces": [{"binding": "KV", "id": "own"}], "triggers": {"crons": []}},
			"bare": {}
		}
	}`
	tests := []struct {
		env   string
		check func(t *testing.T, p *Project)
	}{
		{"", func(t *testing.T, p *Project) {
			if p.Name != "app" || !strings.HasSuffix(p.Main, "src/index.ts") || p.KVNamespaces[0].ID != "top" {
				t.Errorf("top level: got name %q main %q kv %v", p.Name, p.Main, p.KVNamespaces)
			}
		}},
		{"own", func(t *testing.T, p *Project) {
			if p.Name != "own-name" {
				t.Errorf("Name = %q, want the environment's own, %q", p.Name, "own-name")
			}
			if !strings.HasSuffix(p.Main, "src/own.ts") {
				t.Errorf("Main = %q, want the environment's src/own.ts", p.Main)
			}
			if len(p.KVNamespaces) != 1 || p.KVNamespaces[0].ID != "own" {
				t.Errorf("KVNamespaces = %v, want the environment's own", p.KVNamespaces)
			}
			if len(p.Crons) != 0 {
				t.Errorf("Crons = %q: an environment's empty list replaces the top level's", p.Crons)
			}
			if d := diff(p.CompatibilityFlags, []string{"nodejs_compat"}); d != "" {
				t.Errorf("inherited CompatibilityFlags%s", d)
			}
		}},
		{"bare", func(t *testing.T, p *Project) {
			if p.Name != "app-bare" {
				t.Errorf("Name = %q, want %q", p.Name, "app-bare")
			}
			if !strings.HasSuffix(p.Main, "src/index.ts") || p.CompatibilityDate != "2025-01-15" {
				t.Errorf("inherited main %q and date %q", p.Main, p.CompatibilityDate)
			}
			if len(p.KVNamespaces) != 0 {
				t.Errorf("KVNamespaces = %v: environments do not inherit bindings", p.KVNamespaces)
			}
			if d := diff(p.Crons, []string{"0 * * * *"}); d != "" {
				t.Errorf("inherited Crons%s", d)
			}
			if d := diff(p.Bundle.Alias, map[string]string{"a": "b"}); d != "" {
				t.Errorf("top-level-only Alias%s", d)
			}
			want := `wrangler.json: env.bare: "kv_namespaces" is set at the top level but not in this environment, and environments do not inherit it: the worker gets none; add "kv_namespaces" to env.bare if it needs it`
			if len(p.Warnings) != 1 || p.Warnings[0].String() != want {
				t.Errorf("warnings %q, want [%q]", p.Warnings, want)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.env, func(t *testing.T) {
			p, err := load(t, "wrangler.json", base, Options{Env: tt.env})
			if err != nil {
				t.Fatal(err)
			}
			if p.Env != tt.env {
				t.Errorf("Env = %q, want %q", p.Env, tt.env)
			}
			tt.check(t, p)
		})
	}
}

func TestEnvironmentWarnings(t *testing.T) {
	tests := []struct {
		name string
		src  string
		env  string
		want []string
	}{
		{"no environments at all", minimal, "staging", []string{
			`wrangler.toml: there is no environment "staging" (the file defines none); using the top level as "staging"`,
		}},
		{"top-level-only key inside an environment", minimal + "[env.staging]\nalias = { a = \"b\" }\nsend_metrics = false\n", "staging", []string{
			`wrangler.toml: env.staging.alias: ignored: "alias" is read at the top level only, for every environment (wrangler ignores it here too); move it to the top level`,
			`wrangler.toml: env.staging.send_metrics: ignored: "send_metrics" is read at the top level only, for every environment (wrangler ignores it here too); move it to the top level`,
		}},
		{"nested environments", minimal + "[env.staging.env.deeper]\n", "staging", []string{
			`wrangler.toml: env.staging.env: ignored: environments do not nest`,
		}},
		{"bindings missing one by one", minimal + "[[r2_buckets]]\nbinding = \"A\"\nbucket_name = \"aaa\"\n[[r2_buckets]]\nbinding = \"B\"\nbucket_name = \"bbb\"\n" +
			"[[env.staging.r2_buckets]]\nbinding = \"A\"\nbucket_name = \"aaa-staging\"\n", "staging", []string{
			`wrangler.toml: env.staging.r2_buckets: binding "B" is at the top level but not here, and environments do not inherit it`,
		}},
		{"a refused binding the environment drops", minimal + "[ai]\nbinding = \"AI\"\n[env.dwk]\n", "dwk", []string{
			`wrangler.toml: env.dwk: "ai" is set at the top level but not in this environment, and environments do not inherit it: the worker gets none; add "ai" to env.dwk if it needs it`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := load(t, "wrangler.toml", tt.src, Options{Env: tt.env})
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

func TestNoEnvironmentsKeepsTopLevelUnderEnvName(t *testing.T) {
	p, err := load(t, "wrangler.toml", minimal+"[[kv_namespaces]]\nbinding = \"KV\"\n", Options{Env: "staging"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "w-staging" || len(p.KVNamespaces) != 1 {
		t.Errorf("got name %q and %d KV namespaces; want %q and the top level's one", p.Name, len(p.KVNamespaces), "w-staging")
	}
}

func TestInheritedProblemNamesTopLevelKey(t *testing.T) {
	_, err := load(t, "wrangler.toml", "name = \"w\"\nmain = 3\n[env.staging]\n", Options{Env: "staging"})
	want := []string{`wrangler.toml: main: must be a string, got number`}
	if d := diff(problemLines(t, err), want); d != "" {
		t.Errorf("errors%s", d)
	}
}
