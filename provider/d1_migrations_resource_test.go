package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/dwk/fleet/appliance/bindings/d1/d1central"
	"github.com/dwk/fleet/appliance/bindings/d1/d1migrations"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/provider/internal/nsadmin"
	"github.com/dwk/fleet/test/libsqlserver"
)

// TestAccD1Migrations applies a migrations directory to a real libSQL
// database: a new file is applied by the next apply, a broken one stops
// the apply with its name and the SQL error and leaves the others, and a
// database wrangler migrated (its d1_migrations rows) is taken as migrated.
func TestAccD1Migrations(t *testing.T) {
	testAccPreCheck(t)
	t.Parallel()
	srv := libsqlserver.Start(t)
	admin, err := nsadmin.New(srv.AdminURL, srv.AdminKey, "")
	if err != nil {
		t.Fatal(err)
	}
	ns := libsqlserver.Namespace("tfd1")
	dir := t.TempDir()
	write := func(name, sql string) func() {
		return func() {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(sql), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write("0001_items.sql", "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL);\n")()
	config := fmt.Sprintf(`provider "dwk" {
  libsql = { url = %q, auth_token = %q, admin_url = %q, admin_token = %q }
}
resource "dwk_database" "d1" {
  name = %q
}
resource "dwk_d1_migrations" "m" {
  database       = dwk_database.d1.name
  migrations_dir = %q
}
`, srv.URL, srv.AuthToken, srv.AdminURL, srv.AdminKey, ns, dir)
	open := func(name string) *d1central.DB {
		db, err := d1central.Open(d1central.Config{URL: srv.URL, AuthToken: srv.AuthToken, Namespace: name})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	query := func(name, sql string, want string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			res, err := open(name).Batch(context.Background(), []worker.D1Query{{SQL: sql}})
			if err != nil {
				return err
			}
			if got := fmt.Sprint(res[0].Rows); got != want {
				return fmt.Errorf("%s: got %s, want %s", sql, got, want)
			}
			return nil
		}
	}
	const m = "dwk_d1_migrations.m"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(m, "applied.#", "1"),
					resource.TestCheckResourceAttr(m, "applied.0", "0001_items.sql"),
					resource.TestMatchResourceAttr(m, "files_hash", regexp.MustCompile(`^[0-9a-f]{64}$`)),
					query(ns, "SELECT name FROM d1_migrations ORDER BY id", "[[0001_items.sql]]"),
				),
			},
			{
				// A new migration: applied by the next apply.
				PreConfig: write("0002_price.sql", "ALTER TABLE items ADD COLUMN price INTEGER;\nINSERT INTO items (name, price) VALUES ('tea', 3);\n"),
				Config:    config,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(m, "applied.#", "2"),
					resource.TestCheckResourceAttr(m, "applied.1", "0002_price.sql"),
					query(ns, "SELECT name, price FROM items", "[[tea 3]]"),
				),
			},
			{
				// A broken one stops the apply with its name and the SQL
				// error; nothing of it took effect.
				PreConfig:   write("0003_broken.sql", "INSERT INTO items (name) VALUES ('cake');\nINSERT INTO nowhere VALUES (1);\n"),
				Config:      config,
				ExpectError: regexp.MustCompile(`(?s)Migration 0003_broken.sql failed.*no such table: nowhere`),
			},
			{
				PreConfig: write("0003_broken.sql", "INSERT INTO items (name) VALUES ('cake');\n"),
				Config:    config,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(m, "applied.#", "3"),
					query(ns, "SELECT count(*) FROM items WHERE name = 'cake'", "[[1]]"),
				),
			},
			{
				// The database dropped outside Terraform: created again
				// and migrated again.
				PreConfig: func() {
					if err := admin.Delete(context.Background(), ns); err != nil {
						t.Fatal(err)
					}
				},
				Config: config,
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttr(m, "applied.#", "3"),
					query(ns, "SELECT count(*) FROM items", "[[2]]"),
				),
			},
		},
	})

	// A database wrangler migrated: its schema and its d1_migrations rows
	// are there, so nothing runs again (0001 would fail: the table exists).
	migrated := libsqlserver.Namespace("tfd1w")
	if err := admin.Create(context.Background(), migrated); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Delete(context.Background(), migrated) })
	seed := []worker.D1Query{
		{SQL: d1migrations.CreateTableSQL(d1migrations.DefaultTable)},
		{SQL: "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price INTEGER)"},
	}
	for _, name := range []string{"0001_items.sql", "0002_price.sql", "0003_broken.sql"} {
		seed = append(seed, worker.D1Query{SQL: "INSERT INTO d1_migrations (name) VALUES (?)", Args: []any{name}})
	}
	if _, err := open(migrated).Batch(context.Background(), seed); err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`provider "dwk" {
  libsql = { url = %q, auth_token = %q }
}
resource "dwk_d1_migrations" "m" {
  database       = %q
  migrations_dir = %q
}
`, srv.URL, srv.AuthToken, migrated, dir),
			Check: resource.ComposeTestCheckFunc(
				resource.TestCheckResourceAttr(m, "applied.#", "3"),
				query(migrated, "SELECT count(*) FROM items", "[[0]]"),
			),
		}},
	})
}
