package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/marker"
	"github.com/dwk/fleet/appliance/fleet/markerstore"
	"github.com/dwk/fleet/appliance/fleet/namespaces"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/process/buildinfo"
	"github.com/dwk/fleet/provider/internal/nsadmin"
	"github.com/dwk/fleet/test/libsqlserver"
	"github.com/dwk/fleet/test/s3server"
)

// markerEnv is a libSQL server and an S3 service with one fleet's
// coordination database and bucket, made outside Terraform so that the
// tests see what dwk_mode_marker alone leaves behind.
type markerEnv struct {
	fleet, bucket string
	provider      string
	st            *coord.Store
	s3            *s3server.Server
}

func newMarkerEnv(t *testing.T) *markerEnv {
	t.Helper()
	lib := libsqlserver.Start(t)
	s3 := s3server.Start(t)
	fleet := libsqlserver.Namespace("mk")
	admin, err := nsadmin.New(lib.AdminURL, lib.AdminKey, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := admin.Create(ctx, namespaces.Coord(fleet)); err != nil {
		t.Fatal(err)
	}
	hc, err := hranaclient.New(hranaclient.Config{URL: lib.URL, AuthToken: lib.AuthToken, Namespace: namespaces.Coord(fleet)})
	if err != nil {
		t.Fatal(err)
	}
	st, err := coord.Open(ctx, hc, coord.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close(context.Background()) })
	t.Setenv(EnvS3Endpoint, s3.Endpoint)
	t.Setenv(EnvS3AccessKey, s3.AccessKey)
	t.Setenv(EnvS3SecretKey, s3.SecretKey)
	t.Setenv(EnvS3Region, s3.Region)
	return &markerEnv{
		fleet: fleet, bucket: s3.NewBucket(t), st: st, s3: s3,
		provider: fmt.Sprintf("provider \"dwk\" {\n  libsql = { url = %q, auth_token = %q }\n  s3     = { path_style = %v }\n}\n",
			lib.URL, lib.AuthToken, s3.PathStyle),
	}
}

// config is a marker of e's fleet with extra attributes.
func (e *markerEnv) config(extra string) string {
	return e.provider + fmt.Sprintf("resource \"dwk_mode_marker\" \"m\" {\n  fleet  = %q\n  bucket = %q\n%s}\n", e.fleet, e.bucket, extra)
}

// copies reads both copies behind Terraform's back.
func (e *markerEnv) copies() (markerstore.Copies, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return markerstore.Read(ctx, e.st, e.s3.Client(), e.bucket)
}

// inSync checks that both copies carry the id in the state, for fleet e and
// the given schema.
func (e *markerEnv) inSync(schema int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs := s.RootModule().Resources["dwk_mode_marker.m"]
		if rs == nil {
			return fmt.Errorf("dwk_mode_marker.m not in the state")
		}
		c, err := e.copies()
		if err != nil {
			return err
		}
		if !c.InSync() {
			return fmt.Errorf("copies not in sync: coordination %s %+v, bucket %s %+v", c.Coord.Status, c.Coord.Marker, c.Bucket.Status, c.Bucket.Marker)
		}
		m := c.Coord.Marker
		if want := rs.Primary.Attributes["marker_id"]; m.ID != want {
			return fmt.Errorf("stored marker id = %s, state says %s", m.ID, want)
		}
		if err := m.Check(e.fleet, schema); err != nil || m.Schema != schema {
			return fmt.Errorf("stored marker %+v does not let a replica of fleet %s at schema %d start: %v", m, e.fleet, schema, err)
		}
		return nil
	}
}

func TestAccModeMarker(t *testing.T) {
	testAccPreCheck(t)
	e := newMarkerEnv(t)
	var firstID string
	keepID := func(s *terraform.State) error {
		id := s.RootModule().Resources["dwk_mode_marker.m"].Primary.Attributes["marker_id"]
		if firstID == "" {
			firstID = id
		} else if id != firstID {
			return fmt.Errorf("marker id changed from %s to %s; updates must keep it", firstID, id)
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		CheckDestroy: func(*terraform.State) error {
			c, err := e.copies()
			if err != nil {
				return err
			}
			if c.Coord.Status != markerstore.Missing || c.Bucket.Status != markerstore.Missing {
				return fmt.Errorf("after destroy: coordination copy %s, bucket copy %s; want both missing", c.Coord.Status, c.Bucket.Status)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: e.config(""),
				Check:  resource.ComposeTestCheckFunc(e.inSync(buildinfo.SchemaVersion), keepID),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("dwk_mode_marker.m", tfjsonpath.New("id"), knownvalue.StringExact(e.fleet)),
					statecheck.ExpectKnownValue("dwk_mode_marker.m", tfjsonpath.New("database"), knownvalue.StringExact(namespaces.Coord(e.fleet))),
					statecheck.ExpectKnownValue("dwk_mode_marker.m", tfjsonpath.New("status"), knownvalue.StringExact(markerInSync)),
					statecheck.ExpectKnownValue("dwk_mode_marker.m", tfjsonpath.New("schema"), knownvalue.Int64Exact(buildinfo.SchemaVersion)),
					statecheck.ExpectKnownValue("dwk_mode_marker.m", tfjsonpath.New("created_by"), knownvalue.StringRegexp(regexp.MustCompile(`^terraform-provider-dwk `))),
				},
			},
			{ResourceName: "dwk_mode_marker.m", ImportState: true, ImportStateVerify: true, ImportStateIdFunc: func(*terraform.State) (string, error) {
				return e.fleet + "/" + e.bucket, nil
			}},
			{
				// The bucket copy deleted behind Terraform's back: the plan
				// shows the drift and the apply rewrites it with the same id.
				PreConfig: func() {
					if err := markerstore.DeleteBucket(context.Background(), e.s3.Client(), e.bucket); err != nil {
						t.Fatal(err)
					}
				},
				Config:             e.config(""),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				Config: e.config(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("dwk_mode_marker.m", plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(e.inSync(buildinfo.SchemaVersion), keepID),
			},
			{
				// Another provisioning's marker in the coordination database is drift too.
				PreConfig: func() {
					if err := markerstore.WriteCoord(context.Background(), e.st, marker.New(e.fleet, 1, "someone else")); err != nil {
						t.Fatal(err)
					}
				},
				Config: e.config(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("dwk_mode_marker.m", plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(e.inSync(buildinfo.SchemaVersion), keepID),
			},
			{
				// A schema bump rewrites both copies in place.
				Config: e.config("  schema = 2\n"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("dwk_mode_marker.m", plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(e.inSync(2), keepID),
			},
			{
				// Both copies gone: the marker is created again.
				PreConfig: func() {
					if err := markerstore.Delete(context.Background(), e.st, e.s3.Client(), e.bucket); err != nil {
						t.Fatal(err)
					}
				},
				Config: e.config("  schema = 2\n"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("dwk_mode_marker.m", plancheck.ResourceActionCreate),
				}},
				Check: e.inSync(2),
			},
		},
	})
}

func TestAccModeMarkerImportByFleet(t *testing.T) {
	testAccPreCheck(t)
	e := newMarkerEnv(t)
	m := marker.New(e.fleet, 1, "test")
	if err := markerstore.Write(context.Background(), e.st, e.s3.Client(), e.bucket, m); err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				// Creating over an existing marker is refused.
				Config:      e.config(""),
				ExpectError: regexp.MustCompile(`(?s)already has a mode marker.*terraform import`),
			},
			{
				// Imported by fleet name alone, the bucket comes from the
				// configuration on the next apply, keeping the stored id.
				Config:        e.config(""),
				ResourceName:  "dwk_mode_marker.m",
				ImportState:   true,
				ImportStateId: e.fleet,
				ImportStateCheck: func(s []*terraform.InstanceState) error {
					if len(s) != 1 || s[0].Attributes["marker_id"] != m.ID || s[0].Attributes["created_by"] != "test" {
						return fmt.Errorf("imported state = %+v, want marker id %s", s, m.ID)
					}
					return nil
				},
				ImportStatePersist: true,
			},
			{
				Config: e.config(""),
				Check: resource.ComposeTestCheckFunc(e.inSync(1),
					resource.TestCheckResourceAttr("dwk_mode_marker.m", "marker_id", m.ID)),
			},
		},
	})
}

func TestAccModeMarkerErrors(t *testing.T) {
	testAccPreCheck(t)
	e := newMarkerEnv(t)
	other := marker.New("other-fleet", 1, "test")
	if err := markerstore.WriteBucket(context.Background(), e.s3.Client(), e.bucket, other); err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders,
		Steps: []resource.TestStep{
			{
				Config:      e.config(""),
				ExpectError: regexp.MustCompile(`(?s)belong to another fleet.*fleet\s+"other-fleet"`),
			},
			{
				// No coordination database: say which one to create.
				Config: e.provider + fmt.Sprintf("resource \"dwk_mode_marker\" \"m\" {\n  fleet  = \"nodb\"\n  bucket = %q\n}\n",
					e.s3.NewBucket(t)),
				ExpectError: regexp.MustCompile(`(?s)coordination database does not exist.*dwk_database\s+\(name\s+=\s+"dwk-coord-nodb"\)`),
			},
			{
				Config:      "resource \"dwk_mode_marker\" \"m\" {\n  fleet  = \"Bad Fleet\"\n  bucket = \"b\"\n}\n",
				ExpectError: regexp.MustCompile(`fleet`),
			},
		},
	})
}
