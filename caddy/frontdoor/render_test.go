package frontdoor

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"

	"github.com/dwk/fleet/appliance/config"
)

var update = flag.Bool("update", false, "rewrite the golden Caddy configs")

func loadConfig(t *testing.T, path string) *config.Config {
	t.Helper()
	c, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	c.ApplyDefaults()
	return c
}

// TestRenderGolden renders testdata/<name>.dwk.json and compares it with
// testdata/<name>.caddy.json. Run with -update to accept changes.
func TestRenderGolden(t *testing.T) {
	t.Setenv("DWK_TEST_FLEET_SECRET", "env-secret-0123456789abcdef0123456789")
	t.Setenv("DWK_TEST_LIBSQL_TOKEN", "token")
	files, err := filepath.Glob("testdata/*.dwk.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no configs in testdata (%v)", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".dwk.json")
		t.Run(name, func(t *testing.T) {
			raw, err := Render(loadConfig(t, f), Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := json.Indent(&got, raw, "", "\t"); err != nil {
				t.Fatal(err)
			}
			got.WriteByte('\n')
			golden := filepath.Join("testdata", name+".caddy.json")
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("rendered config differs from %s (run with -update to accept):\n%s", golden, got.String())
			}
		})
	}
}

func TestRenderKeepsEnvSecretsOut(t *testing.T) {
	t.Setenv("DWK_TEST_FLEET_SECRET", "env-secret-0123456789abcdef0123456789")
	t.Setenv("DWK_TEST_LIBSQL_TOKEN", "token-value")
	raw, err := Render(loadConfig(t, "testdata/plain.dwk.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"env-secret-0123456789abcdef0123456789", "token-value"} {
		if bytes.Contains(raw, []byte(secret)) {
			t.Errorf("rendered config contains the secret %q", secret)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	t.Setenv("DWK_TEST_FLEET_SECRET", "env-secret-0123456789abcdef0123456789")
	t.Setenv("DWK_TEST_LIBSQL_TOKEN", "token")
	tests := []struct {
		name   string
		mutate func(*config.Config)
		opts   Options
		want   error
	}{
		{"local mode", func(c *config.Config) { c.Storage.Mode = config.ModeLocal }, Options{}, ErrConfig},
		{"no libsql", func(c *config.Config) { c.Storage.LibSQL = nil }, Options{}, ErrConfig},
		{"no secret", func(c *config.Config) { c.Fleet.Secret = nil }, Options{}, ErrConfig},
		{"unset secret env", func(c *config.Config) { c.Fleet.Secret = &config.Secret{Env: "DWK_TEST_UNSET_SECRET"} }, Options{}, ErrConfig},
		{"bad internal", func(c *config.Config) { c.Listen.Internal = "nowhere" }, Options{}, ErrConfig},
		{"bad address option", func(*config.Config) {}, Options{Address: "both"}, ErrOptions},
		{"bad self path", func(*config.Config) {}, Options{SelfPaths: []string{"readyz"}}, ErrOptions},
		{"bad log level", func(*config.Config) {}, Options{LogLevel: "loud"}, ErrOptions},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := loadConfig(t, "testdata/plain.dwk.json")
			tt.mutate(c)
			if _, err := Render(c, tt.opts); !errors.Is(err, tt.want) {
				t.Errorf("Render = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestOptionsShapeTheProxy(t *testing.T) {
	t.Setenv("DWK_TEST_FLEET_SECRET", "env-secret-0123456789abcdef0123456789")
	t.Setenv("DWK_TEST_LIBSQL_TOKEN", "token")
	raw, err := Render(loadConfig(t, "testdata/plain.dwk.json"), Options{
		Retries: -1, ReplayBody: -1, SelfPaths: []string{}, Address: "public", LogLevel: "info", FailDuration: -1,
		DialTimeout: time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	for _, absent := range []string{`"retries"`, `"retry_match"`, `"request_buffers"`, `"/readyz"`, `"health_checks"`} {
		if strings.Contains(s, absent) {
			t.Errorf("config has %s:\n%s", absent, s)
		}
	}
	for _, present := range []string{`"address":"public"`, `"level":"INFO"`, `"dial_timeout":1000000000`} {
		if !strings.Contains(s, present) {
			t.Errorf("config lacks %s:\n%s", present, s)
		}
	}
}

// TestSharedStorageProvisions loads the shared-certificate config into
// Caddy without starting it, so that the storage module is registered in
// this binary and accepts what Render writes.
func TestSharedStorageProvisions(t *testing.T) {
	t.Setenv("DWK_TEST_FLEET_SECRET", "env-secret-0123456789abcdef0123456789")
	t.Setenv("DWK_TEST_LIBSQL_TOKEN", "token")
	c := loadConfig(t, "testdata/tls-shared.dwk.json")
	c.Storage.LibSQL.URL = "http://127.0.0.1:1" // nothing listens; the storage opens lazily
	raw, err := Render(c, Options{LogLevel: "ERROR"})
	if err != nil {
		t.Fatal(err)
	}
	var cfg caddy.Config
	if err := json.Unmarshal(raw, &cfg); err != nil {
		t.Fatal(err)
	}
	if err := caddy.Validate(&cfg); err != nil {
		t.Fatalf("caddy rejects the rendered config: %v", err)
	}
}
