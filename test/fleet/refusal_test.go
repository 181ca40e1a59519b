package fleet

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/marker"
	"github.com/dwk/fleet/appliance/fleet/markerstore"
	"github.com/dwk/fleet/appliance/fleet/namespaces"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/process/datadir"
	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/libsqlserver"
)

// TestRefusals starts replicas against stores they must not serve: each
// refuses to start, exits non-zero and says what is wrong and how to fix it.
func TestRefusals(t *testing.T) {
	f := fleettest.New(t, fleettest.Options{Replicas: 1})
	cfgPath := f.Replicas[0].Config
	edit := func(t *testing.T, fn func(c *config.Config)) string {
		c, err := config.Load(cfgPath)
		if err != nil {
			t.Fatal(err)
		}
		fn(c)
		b, _ := config.Encode(c)
		p := filepath.Join(t.TempDir(), "dwk.json")
		os.WriteFile(p, b, 0o600)
		return p
	}
	serve := func(t *testing.T, path string, want ...string) {
		t.Helper()
		code, out := f.Run("serve", "--config", path)
		if code == 0 {
			t.Fatalf("dwk serve started; want a refusal\n%s", out)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("output lacks %q:\n%s", w, out)
			}
		}
	}
	ctx := context.Background()
	writeMarker := func(t *testing.T, m marker.Marker) {
		c, err := hranaclient.New(hranaclient.Config{URL: f.LibSQL.URL, AuthToken: f.LibSQL.AuthToken, Namespace: namespaces.Coord(f.Name)})
		if err != nil {
			t.Fatal(err)
		}
		st, err := coord.Open(ctx, c, coord.Options{SweepInterval: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close(ctx)
		if err := markerstore.WriteCoord(ctx, st, m); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("not provisioned", func(t *testing.T) {
		serve(t, cfgPath, "no mode marker", "terraform apply")
	})
	t.Run("admin token wrong", func(t *testing.T) {
		if f.LibSQL.External {
			t.Skip("an external libSQL server's admin key is not under the test's control")
		}
		keyed := libsqlserver.Start(t, "--admin-auth-key", "the-right-key")
		p := edit(t, func(c *config.Config) {
			c.Storage.LibSQL.URL, c.Storage.LibSQL.AdminURL = keyed.URL, keyed.AdminURL
			c.Storage.LibSQL.AdminToken = config.Literal("a-wrong-key")
		})
		serve(t, p, "admin_token")
	})
	f.Provision()
	t.Run("bucket missing", func(t *testing.T) {
		p := edit(t, func(c *config.Config) { c.Storage.S3.Bucket = "no-such-bucket-" + f.Name })
		serve(t, p, "no-such-bucket-"+f.Name)
	})
	t.Run("data dir used in local mode", func(t *testing.T) {
		dir := t.TempDir()
		d, err := datadir.Open(dir, config.ModeLocal, f.Name)
		if err != nil {
			t.Fatal(err)
		}
		d.Close()
		p := edit(t, func(c *config.Config) { c.Storage.DataDir = dir })
		serve(t, p, "holds local-mode data", "never mixed")
	})
	t.Run("marker of another fleet", func(t *testing.T) {
		writeMarker(t, marker.New("someone-else", 1, "test"))
		serve(t, cfgPath, "belongs to fleet 'someone-else'", "set fleet.name")
	})
	t.Run("marker schema newer", func(t *testing.T) {
		writeMarker(t, marker.New(f.Name, 99, "test"))
		serve(t, cfgPath, "schema 99", "upgrade dwk")
	})
}
