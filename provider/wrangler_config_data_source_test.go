package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// TestAccWranglerConfig reads testdata/wrangler-project through terraform:
// every binding at the top level and in an environment, no secret value in
// the state, and a broken file as an error that names the key.
func TestAccWranglerConfig(t *testing.T) {
	testAccPreCheck(t)
	t.Parallel()
	dir, err := filepath.Abs("testdata/wrangler-project")
	if err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(t.TempDir(), "wrangler.toml")
	if err := os.WriteFile(broken, []byte("name = \"x\"\nmain = \"src/index.ts\"\n[[d1_databases]]\nbinding = \"DB\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const ds = "data.dwk_wrangler_config.p"
	noSecret := func(s *terraform.State) error {
		for _, r := range s.RootModule().Resources {
			for k, v := range r.Primary.Attributes {
				if strings.Contains(v, "never-in-the-state") {
					return fmt.Errorf("the state holds the secret's value at %s", k)
				}
			}
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config: fmt.Sprintf(`data "dwk_wrangler_config" "p" { path = %q }`, dir),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(ds, "name", "shop"),
					resource.TestCheckResourceAttr(ds, "config_path", filepath.Join(dir, "wrangler.jsonc")),
					resource.TestMatchResourceAttr(ds, "config_hash", regexp.MustCompile(`^[0-9a-f]{64}$`)),
					resource.TestCheckResourceAttr(ds, "main", filepath.Join(dir, "src", "index.ts")),
					resource.TestCheckResourceAttr(ds, "compatibility_flags.0", "nodejs_compat"),
					resource.TestCheckResourceAttr(ds, "vars.GREETING", "hello"),
					resource.TestCheckResourceAttr(ds, "vars.LIMITS", `{"max":3}`),
					resource.TestCheckResourceAttr(ds, "required_secrets.0", "API_KEY"),
					resource.TestCheckResourceAttr(ds, "d1_databases.0.binding", "DB"),
					resource.TestCheckResourceAttr(ds, "d1_databases.0.database_name", "shop-db"),
					resource.TestCheckResourceAttr(ds, "d1_databases.0.store", "shop-db"),
					resource.TestCheckResourceAttr(ds, "d1_databases.0.migrations_dir", filepath.Join(dir, "db", "migrations")),
					resource.TestCheckResourceAttr(ds, "r2_buckets.0.bucket_name", "shop-files"),
					resource.TestCheckResourceAttr(ds, "kv_namespaces.0.id", "cache-ns"),
					resource.TestCheckResourceAttr(ds, "queue_producers.0.queue", "orders"),
					resource.TestCheckResourceAttr(ds, "queue_consumers.0.max_retries", "5"),
					resource.TestCheckResourceAttr(ds, "queue_consumers.0.max_batch_size", "10"),
					resource.TestCheckResourceAttr(ds, "queue_consumers.0.dead_letter_queue", "orders-dlq"),
					resource.TestCheckResourceAttr(ds, "durable_objects.0.class_name", "Cart"),
					resource.TestCheckResourceAttr(ds, "crons.0", "*/5 * * * *"),
					resource.TestCheckResourceAttr(ds, "assets_directory", ""),
					noSecret,
				),
			},
			{
				Config: fmt.Sprintf(`data "dwk_wrangler_config" "p" {
  path = %q
  env  = "staging"
}`, filepath.Join(dir, "wrangler.jsonc")),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(ds, "name", "shop-staging"),
					resource.TestCheckResourceAttr(ds, "vars.GREETING", "hi from staging"),
					resource.TestCheckResourceAttr(ds, "d1_databases.0.database_name", "shop-db-staging"),
					resource.TestCheckResourceAttr(ds, "r2_buckets.0.bucket_name", "shop-files-staging"),
					resource.TestCheckResourceAttr(ds, "queue_producers.0.queue", "orders-staging"),
					noSecret,
				),
			},
			{
				Config:      fmt.Sprintf(`data "dwk_wrangler_config" "p" { path = %q }`, broken),
				ExpectError: regexp.MustCompile(`database_name`),
			},
			{
				Config:      fmt.Sprintf(`data "dwk_wrangler_config" "p" { path = %q }`, t.TempDir()),
				ExpectError: regexp.MustCompile(`No wrangler file`),
			},
		},
	})
}
