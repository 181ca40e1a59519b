package wrangler

import (
	"os"
	"path/filepath"
	"testing"
)

// project writes files into a fresh directory, wrangler.toml included,
// and returns the directory.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const secretsConfig = minimal + "vars = { MODE = \"dev\", SHARED = \"from vars\" }\n[env.staging]\nvars = { MODE = \"staging\" }\n"

func TestSecrets(t *testing.T) {
	tests := []struct {
		name     string
		config   string
		files    map[string]string
		opts     Options
		want     map[string]string
		wantFrom []string
	}{
		{"dev vars", secretsConfig, map[string]string{".dev.vars": "API_KEY=k\n", ".env": "IGNORED=1\n"},
			Options{}, map[string]string{"API_KEY": "k"}, []string{".dev.vars"}},
		{"the environment's dev vars replace, not merge", secretsConfig, map[string]string{".dev.vars": "A=top\nB=top\n", ".dev.vars.staging": "A=staging\n"},
			Options{Env: "staging"}, map[string]string{"A": "staging"}, []string{".dev.vars.staging"}},
		{"dev vars when the environment has none", secretsConfig, map[string]string{".dev.vars": "A=top\n"},
			Options{Env: "staging"}, map[string]string{"A": "top"}, []string{".dev.vars"}},
		{"CLOUDFLARE_ENV picks the environment", secretsConfig, map[string]string{".dev.vars": "A=top\n", ".dev.vars.staging": "A=staging\n"},
			Options{ProcessEnv: map[string]string{"CLOUDFLARE_ENV": "staging"}}, map[string]string{"A": "staging"}, []string{".dev.vars.staging"}},
		{".env files in order, expanded", secretsConfig, map[string]string{
			".env":                "A=env\nB=env\nC=env\nD=env\nHOST=env\nURL=http://$HOST/\n",
			".env.local":          "B=local\nHOST=localhost\n",
			".env.staging":        "C=staging\n",
			".env.staging.local":  "D=staging-local\n",
			".env.production":     "C=production\n",
			".dev.vars.unrelated": "X=1\n",
		}, Options{Env: "staging"}, map[string]string{"A": "env", "B": "local", "C": "staging", "D": "staging-local", "HOST": "localhost", "URL": "http://localhost/"},
			[]string{".env", ".env.local", ".env.staging", ".env.staging.local"}},
		{"a reference to a key a later file adds is empty, as in wrangler", secretsConfig, map[string]string{
			".env": "URL=http://$HOST/\n", ".env.local": "HOST=localhost\n",
		}, Options{}, map[string]string{"URL": "http:///", "HOST": "localhost"}, []string{".env", ".env.local"}},
		{".env files can be turned off", secretsConfig, map[string]string{".env": "A=1\n"},
			Options{ProcessEnv: map[string]string{"CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV": "False"}}, map[string]string{}, nil},
		{"process environment when asked", secretsConfig, map[string]string{".env": "A=$FROM_SHELL\n"},
			Options{ProcessEnv: map[string]string{"CLOUDFLARE_INCLUDE_PROCESS_ENV": "true", "FROM_SHELL": "s"}},
			map[string]string{"A": "s", "FROM_SHELL": "s", "CLOUDFLARE_INCLUDE_PROCESS_ENV": "true"}, []string{".env"}},
		{"process environment not by default", secretsConfig, map[string]string{".env": "A=$FROM_SHELL\n"},
			Options{ProcessEnv: map[string]string{"FROM_SHELL": "s"}}, map[string]string{"A": ""}, []string{".env"}},
		{"env files option", secretsConfig, map[string]string{".dev.vars": "A=dev\n", "ci.env": "A=ci\n"},
			Options{EnvFiles: []string{"ci.env", "missing.env"}}, map[string]string{"A": "ci"}, []string{"ci.env"}},
		{"required secrets filter", secretsConfig + "[secrets]\nrequired = [\"API_KEY\"]\n",
			map[string]string{".dev.vars": "API_KEY=k\nSHARED=from secrets\nOTHER=dropped\n"},
			Options{}, map[string]string{"API_KEY": "k", "SHARED": "from secrets"}, []string{".dev.vars"}},
		{"required secrets from the process", secretsConfig + "[secrets]\nrequired = [\"API_KEY\"]\n", nil,
			Options{ProcessEnv: map[string]string{"API_KEY": "p", "PATH": "/bin"}}, map[string]string{"API_KEY": "p"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"wrangler.toml": tt.config}
			for k, v := range tt.files {
				files[k] = v
			}
			dir := project(t, files)
			p, err := Load(filepath.Join(dir, "wrangler.toml"), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if d := diff(p.Secrets, tt.want); d != "" {
				t.Errorf("Secrets%s", d)
			}
			var from []string
			for _, f := range p.SecretsFrom {
				rel, _ := filepath.Rel(dir, f)
				from = append(from, rel)
			}
			if d := diff(from, tt.wantFrom); d != "" {
				t.Errorf("SecretsFrom%s", d)
			}
		})
	}
}

func TestSecretsWarnings(t *testing.T) {
	dir := project(t, map[string]string{
		"wrangler.toml": minimal + "[secrets]\nrequired = [\"API_KEY\", \"DB_URL\"]\n",
		".dev.vars":     "API_KEY=k\n",
	})
	p, err := Load(filepath.Join(dir, "wrangler.toml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range p.Warnings {
		got = append(got, w.String())
	}
	want := []string{`wrangler.toml: secrets.required: secret "DB_URL" is required but no secrets file sets it: add it to .dev.vars`}
	if d := diff(got, want); d != "" {
		t.Errorf("warnings%s", d)
	}
}

func TestSecretsSettingErrors(t *testing.T) {
	dir := project(t, map[string]string{"wrangler.toml": minimal})
	_, err := Load(filepath.Join(dir, "wrangler.toml"), Options{ProcessEnv: map[string]string{
		"CLOUDFLARE_INCLUDE_PROCESS_ENV":        "yes",
		"CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV": "0",
	}})
	want := []string{
		`CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV must be "true" or "false", got "0"`,
		`CLOUDFLARE_INCLUDE_PROCESS_ENV must be "true" or "false", got "yes"`,
	}
	if d := diff(problemLines(t, err), want); d != "" {
		t.Errorf("errors%s", d)
	}
}

func TestEnvVarsSecretWins(t *testing.T) {
	p := &Project{
		Vars:    map[string]any{"MODE": "dev", "LIMIT": 5.0},
		Secrets: map[string]string{"MODE": "secret", "KEY": "k"},
	}
	want := map[string]any{"MODE": "secret", "LIMIT": 5.0, "KEY": "k"}
	if d := diff(p.EnvVars(), want); d != "" {
		t.Errorf("EnvVars%s", d)
	}
}
