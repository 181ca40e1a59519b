package central_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/central"
	"github.com/dwk/fleet/appliance/config"
)

// baseConfig is a central-mode config whose secrets are literals.
func baseConfig() *config.Config {
	return &config.Config{
		Fleet: config.Fleet{Name: "unit", Secret: config.Literal(strings.Repeat("s", config.MinSecretLen))},
		Storage: config.Storage{
			Mode: config.ModeCentral,
			LibSQL: &config.LibSQL{
				URL: "http://127.0.0.1:1", AdminURL: "http://127.0.0.1:2",
				AuthToken: config.Literal("jwt"), AdminToken: config.Literal("key"),
				ObjectShards: []config.LibSQLShard{{URL: "http://127.0.0.1:3", AuthToken: config.Literal("jwt3")}},
			},
			S3: &config.S3{Endpoint: "http://127.0.0.1:4", Bucket: "unit-bucket", AccessKey: config.Literal("ak"), SecretKey: config.Literal("sk")},
		},
	}
}

// problemPaths returns the paths of err's config.Problems, or fails t.
func problemPaths(t *testing.T, err error) []string {
	t.Helper()
	var ps config.Problems
	if !errors.As(err, &ps) {
		t.Fatalf("Dial error = %v, want config.Problems", err)
	}
	var paths []string
	for _, p := range ps {
		paths = append(paths, p.Path)
	}
	return paths
}

func TestDialReportsSecretByPath(t *testing.T) {
	missingEnv := &config.Secret{Env: "DWK_CENTRAL_TEST_UNSET"}
	missingFile := &config.Secret{File: filepath.Join(t.TempDir(), "absent")}
	tests := []struct {
		path string
		set  func(c *config.Config)
	}{
		{"fleet.secret", func(c *config.Config) { c.Fleet.Secret = missingEnv }},
		{"storage.libsql.auth_token", func(c *config.Config) { c.Storage.LibSQL.AuthToken = missingEnv }},
		{"storage.libsql.admin_token", func(c *config.Config) { c.Storage.LibSQL.AdminToken = missingFile }},
		{"storage.libsql.object_shards[0].auth_token", func(c *config.Config) { c.Storage.LibSQL.ObjectShards[0].AuthToken = missingEnv }},
		{"storage.libsql.object_shards[0].admin_token", func(c *config.Config) { c.Storage.LibSQL.ObjectShards[0].AdminToken = missingFile }},
		{"storage.s3.access_key", func(c *config.Config) { c.Storage.S3.AccessKey = missingEnv }},
		{"storage.s3.secret_key", func(c *config.Config) { c.Storage.S3.SecretKey = missingFile }},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			cfg := baseConfig()
			tt.set(cfg)
			c, err := central.Dial(context.Background(), cfg, central.Options{})
			if err == nil {
				c.Close()
				t.Fatal("Dial succeeded with a secret that does not resolve")
			}
			if got := problemPaths(t, err); len(got) != 1 || got[0] != tt.path {
				t.Errorf("problem paths = %q, want [%q]", got, tt.path)
			}
			if !strings.Contains(err.Error(), tt.path+": secret source: ") {
				t.Errorf("error %q does not name %s and the cause", err, tt.path)
			}
		})
	}
}

func TestDialReportsEverySecret(t *testing.T) {
	cfg := baseConfig()
	cfg.Storage.LibSQL.AuthToken = &config.Secret{Env: "DWK_CENTRAL_TEST_UNSET"}
	cfg.Storage.S3.SecretKey = &config.Secret{Env: "DWK_CENTRAL_TEST_UNSET"}
	_, err := central.Dial(context.Background(), cfg, central.Options{})
	got := strings.Join(problemPaths(t, err), " ")
	if want := "storage.libsql.auth_token storage.s3.secret_key"; got != want {
		t.Errorf("problem paths = %q, want %q", got, want)
	}
}

func TestDialResolvesSecrets(t *testing.T) {
	t.Setenv("DWK_CENTRAL_TEST_TOKEN", "env-jwt")
	secretFile := filepath.Join(t.TempDir(), "fleet-secret")
	secret := strings.Repeat("f", config.MinSecretLen)
	if err := os.WriteFile(secretFile, []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := baseConfig()
	cfg.Fleet.Secret = &config.Secret{File: secretFile}
	cfg.Storage.LibSQL.AuthToken = &config.Secret{Env: "DWK_CENTRAL_TEST_TOKEN"}
	c, err := central.Dial(context.Background(), cfg, central.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Secret != secret || c.AuthToken != "env-jwt" {
		t.Errorf("Secret, AuthToken = %q, %q; want %q, %q", c.Secret, c.AuthToken, secret, "env-jwt")
	}
	if got, want := c.S3Config.AccessKey+"/"+c.S3Config.SecretKey, "ak/sk"; got != want {
		t.Errorf("S3 credentials = %q, want %q", got, want)
	}
	if got, want := c.Coord.Namespace(), "dwk-coord-unit"; got != want {
		t.Errorf("Coord namespace = %q, want %q", got, want)
	}
	var names []string
	for _, sh := range c.ObjectShards {
		names = append(names, sh.Name)
	}
	if got, want := strings.Join(names, " "), "http://127.0.0.1:1 http://127.0.0.1:3"; got != want {
		t.Errorf("object shards = %q, want %q", got, want)
	}
	if c.ObjectShards[0].Admin == nil || c.ObjectShards[1].Admin != nil {
		t.Errorf("shard admin clients = %v, %v; want one for the shard with an admin_url only", c.ObjectShards[0].Admin, c.ObjectShards[1].Admin)
	}
	p := c.Probe()
	if p.Fleet != "unit" || p.LibSQL != c.Coord || p.Admin != c.Admin || p.S3 == nil || p.Bucket != "unit-bucket" ||
		p.LibSQLURL != "http://127.0.0.1:1" || p.AdminURL != "http://127.0.0.1:2" || p.S3Endpoint != "http://127.0.0.1:4" {
		t.Errorf("Probe() = %+v, want the clients and the config's URLs", p)
	}
}

func TestDialOptionalParts(t *testing.T) {
	cfg := baseConfig()
	cfg.Storage.LibSQL.AdminURL = ""
	cfg.Storage.S3 = nil
	c, err := central.Dial(context.Background(), cfg, central.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Admin != nil || c.S3 != nil || c.Probe().S3 != nil {
		t.Errorf("Admin, S3, Probe().S3 = %v, %v, %v; want nil without admin_url and storage.s3", c.Admin, c.S3, c.Probe().S3)
	}
}

func TestDialBadSections(t *testing.T) {
	tests := []struct {
		name, want string
		set        func(c *config.Config)
	}{
		{"no libsql", "storage.libsql: ", func(c *config.Config) { c.Storage.LibSQL = nil }},
		{"bad url", "storage.libsql.url: ", func(c *config.Config) { c.Storage.LibSQL.URL = "ftp://x" }},
		{"bad admin url", "storage.libsql.admin_url: ", func(c *config.Config) { c.Storage.LibSQL.AdminURL = "ftp://x" }},
		{"bad shard", "storage.libsql.object_shards[0]: url: ", func(c *config.Config) { c.Storage.LibSQL.ObjectShards[0].URL = "ftp://x" }},
		{"half credentials", "storage.s3: ", func(c *config.Config) { c.Storage.S3.SecretKey = nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := baseConfig()
			tt.set(cfg)
			c, err := central.Dial(context.Background(), cfg, central.Options{})
			if err == nil {
				c.Close()
				t.Fatal("Dial succeeded")
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error = %q, want it to start with %q", err, tt.want)
			}
		})
	}
}
