package provider

import (
	"context"
	"errors"
	"fmt"
	"net"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/provider/internal/nsadmin"
	"github.com/dwk/fleet/test/libsqlserver"
)

func TestAccDatabase(t *testing.T) {
	testAccPreCheck(t)
	t.Parallel()
	srv := libsqlserver.Start(t)
	admin, err := nsadmin.New(srv.AdminURL, srv.AdminKey, "")
	if err != nil {
		t.Fatal(err)
	}
	name, renamed := libsqlserver.Namespace("tfacc"), libsqlserver.Namespace("tfacc")
	provider := fmt.Sprintf(`provider "dwk" {
  libsql = { admin_url = %q, admin_token = %q }
}
`, srv.AdminURL, srv.AdminKey)
	db := func(name, extra string) string {
		return provider + fmt.Sprintf("resource \"dwk_database\" \"db\" {\n  name = %q\n%s}\n", name, extra)
	}
	exists := func(ns string, want bool) resource.TestCheckFunc {
		return func(*terraform.State) error {
			ok, err := admin.Exists(context.Background(), ns)
			if err != nil {
				return err
			}
			if ok != want {
				return fmt.Errorf("namespace %s exists = %v, want %v", ns, ok, want)
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		CheckDestroy: func(*terraform.State) error {
			for _, ns := range []string{name, renamed} {
				if ok, err := admin.Exists(context.Background(), ns); err != nil || ok {
					return fmt.Errorf("namespace %s left behind (%v)", ns, err)
				}
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: db(name, ""),
				Check:  exists(name, true),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("dwk_database.db", tfjsonpath.New("id"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue("dwk_database.db", tfjsonpath.New("block_writes"), knownvalue.Bool(false)),
				},
			},
			{ResourceName: "dwk_database.db", ImportState: true, ImportStateVerify: true, ImportStateId: name},
			{
				// In place: block writes for a migration.
				Config: db(name, "  block_writes = true\n  block_reason = \"migrating\"\n"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("dwk_database.db", plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					c, err := admin.Config(context.Background(), name)
					if err != nil {
						return err
					}
					if !c.BlockWrites || c.BlockReason == nil || *c.BlockReason != "migrating" {
						return fmt.Errorf("namespace config = %s, want block_writes with reason", c.Raw)
					}
					return nil
				},
			},
			{ResourceName: "dwk_database.db", ImportState: true, ImportStateVerify: true, ImportStateId: name},
			{
				// Deleted behind Terraform's back: the plan creates it again.
				PreConfig: func() {
					if err := admin.Delete(context.Background(), name); err != nil {
						t.Fatal(err)
					}
				},
				Config:             db(name, "  block_writes = true\n  block_reason = \"migrating\"\n"),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				Config: db(name, "  block_writes = true\n  block_reason = \"migrating\"\n"),
				Check:  exists(name, true),
			},
			{
				// A new name replaces the database; the override block points at the same server.
				Config: db(renamed, fmt.Sprintf("  libsql = { admin_url = %q }\n", srv.AdminURL)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("dwk_database.db", plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: resource.ComposeTestCheckFunc(exists(renamed, true), exists(name, false)),
			},
		},
	})
}

// TestAccDatabaseDeletionProtection: a protected database survives destroy,
// which fails naming the flag, until an apply turns the flag off.
func TestAccDatabaseDeletionProtection(t *testing.T) {
	testAccPreCheck(t)
	t.Parallel()
	srv := libsqlserver.Start(t)
	admin, err := nsadmin.New(srv.AdminURL, srv.AdminKey, "")
	if err != nil {
		t.Fatal(err)
	}
	name := libsqlserver.Namespace("tfacc")
	db := func(protected bool) string {
		return fmt.Sprintf("resource \"dwk_database\" \"db\" {\n  name = %q\n  deletion_protection = %v\n  libsql = { admin_url = %q, admin_token = %q }\n}\n",
			name, protected, srv.AdminURL, srv.AdminKey)
	}
	exists := func(want bool) resource.TestCheckFunc {
		return func(*terraform.State) error {
			ok, err := admin.Exists(context.Background(), name)
			if err != nil || ok != want {
				return fmt.Errorf("namespace %s exists = %v (%v), want %v", name, ok, err, want)
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		CheckDestroy:             func(s *terraform.State) error { return exists(false)(s) },
		Steps: []resource.TestStep{
			{Config: db(true), Check: exists(true)},
			{
				Config:      db(true),
				Destroy:     true,
				ExpectError: errRE("dwk_database "+name+" has deletion_protection = true", "set deletion_protection = false"),
			},
			{
				// Still there; turning protection off is an in-place update.
				Config: db(false),
				Check:  exists(true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("dwk_database.db", plancheck.ResourceActionUpdate),
				}},
			},
		},
	})
}

func TestAccDatabaseErrors(t *testing.T) {
	testAccPreCheck(t)
	t.Parallel()
	srv := libsqlserver.Start(t)
	name := libsqlserver.Namespace("tfacc")
	admin, _ := nsadmin.New(srv.AdminURL, srv.AdminKey, "")
	if err := admin.Create(context.Background(), name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := admin.Delete(context.Background(), name); err != nil && !errors.Is(err, libsqladmin.ErrNotFound) {
			t.Error(err)
		}
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config:      fmt.Sprintf("resource \"dwk_database\" \"db\" {\n  name = \"x\"\n  libsql = { admin_url = %q }\n}\n", closed),
				ExpectError: regexp.MustCompile(`(?s)Cannot create database x.*connection refused.*admin_url`),
			},
			{
				Config:      fmt.Sprintf("resource \"dwk_database\" \"db\" {\n  name = %q\n  libsql = { admin_url = %q }\n}\n", name, srv.AdminURL),
				ExpectError: regexp.MustCompile(`(?s)already exists.*terraform import`),
			},
			{
				Config:      "resource \"dwk_database\" \"db\" {\n  name = \"Bad Name\"\n}\n",
				ExpectError: regexp.MustCompile(`not a database \(namespace\) name`),
			},
			{
				Config:      "resource \"dwk_database\" \"db\" {\n  name = \"nourl\"\n}\n",
				ExpectError: regexp.MustCompile(`DWK_LIBSQL_ADMIN_URL`),
			},
		},
	})
}

// TestAccDatabaseImportOverride: a database on another server than the
// provider's is imported as NAME@ADMIN_URL; by name alone it is looked for
// on the provider's server.
func TestAccDatabaseImportOverride(t *testing.T) {
	testAccPreCheck(t)
	t.Parallel()
	srv := libsqlserver.Start(t)
	name := libsqlserver.Namespace("tfacc")
	cfg := fmt.Sprintf(`provider "dwk" {
  libsql = { admin_url = "http://127.0.0.1:9", admin_token = %[3]q }
}
resource "dwk_database" "db" {
  name   = %[1]q
  libsql = { admin_url = %[2]q }
}
`, name, srv.AdminURL, srv.AdminKey)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				Config: cfg, ResourceName: "dwk_database.db", ImportState: true, ImportStateId: name,
				ExpectError: regexp.MustCompile("Cannot read database"),
			},
			{
				Config: cfg, ResourceName: "dwk_database.db", ImportState: true, ImportStateVerify: true,
				ImportStateId: name + "@" + srv.AdminURL,
			},
		},
	})
}
