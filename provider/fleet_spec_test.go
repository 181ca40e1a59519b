package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/provider/internal/deploy"
)

func TestResolveHostsDefaults(t *testing.T) {
	hs := resolveHosts("prod", []hostModel{
		{Address: types.StringValue("10.0.0.5")},
		{Address: types.StringValue("local"), InstallDir: types.StringValue("/srv/a")},
		{Address: types.StringValue("local"), InstallDir: types.StringValue("/srv/b"), Member: types.StringValue("b"), Public: types.StringValue("127.0.0.1:9000")},
	}, [3]int64{8787, 8788, 8789})
	got := []string{}
	for _, h := range hs {
		got = append(got, strings.Join([]string{h.Member, h.InstallDir, h.Public, h.Advertise, h.Admin, h.Unit, h.URL(), h.Label()}, " "))
	}
	want := []string{
		"10.0.0.5 /opt/dwk/prod 0.0.0.0:8787 10.0.0.5:8788 127.0.0.1:8789 dwk-prod.service http://10.0.0.5:8787 root@10.0.0.5:22",
		"local-1 /srv/a 0.0.0.0:8787 127.0.0.1:8788 127.0.0.1:8789 dwk-prod-local-1.service http://127.0.0.1:8787 local:/srv/a",
		"b /srv/b 127.0.0.1:9000 127.0.0.1:8788 127.0.0.1:8789 dwk-prod-b.service http://127.0.0.1:9000 local:/srv/b",
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("host %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
}

func TestRenderLocalAndCentral(t *testing.T) {
	h := resolveHosts("prod", []hostModel{{Address: types.StringValue("10.0.0.5")}}, [3]int64{8787, 8788, 8789})[0]
	s := &fleetSpec{Name: "prod", Mode: "local", AdminToken: "tok", DrainTimeout: 30e9, LeaseTTL: 10e9, LogLevel: "info"}
	c := s.render(h)
	if c.Storage.DataDir != "/opt/dwk/prod/data" || c.Listen.Internal != "" || c.Storage.LibSQL != nil {
		t.Errorf("local render: %+v", c)
	}
	c.ApplyDefaults()
	if err := c.Validate(nil); err != nil {
		t.Errorf("local render invalid: %v", err)
	}
	s.Mode, s.Secret = "central", testSecret
	s.LibSQL = &config.LibSQL{URL: "http://db:8080"}
	s.S3 = &config.S3{Bucket: "fleet-bucket", Endpoint: "http://s3:7070"}
	c = s.render(h)
	if c.Storage.DataDir != "" || c.Listen.Advertise != "10.0.0.5:8788" || c.Storage.S3.Bucket != "fleet-bucket" {
		t.Errorf("central render: %+v", c)
	}
	c.ApplyDefaults()
	if err := c.Validate(nil); err != nil {
		t.Errorf("central render invalid: %v", err)
	}
	if a, b := s.configHash(h), s.configHash(h); a != b || a == "" {
		t.Errorf("hash not stable: %q %q", a, b)
	}
	s2 := *s
	s2.Secret = testSecret + "x"
	if s.configHash(h) == s2.configHash(h) {
		t.Error("changing the write-only secret does not change the config hash, so it would not roll the fleet")
	}
}

func TestDesiredReplica(t *testing.T) {
	h := resolveHosts("prod", []hostModel{{Address: types.StringValue("10.0.0.5")}}, [3]int64{8787, 8788, 8789})[0]
	s := &fleetSpec{Name: "prod", Mode: "local", AdminToken: "tok", Service: deploy.ServiceAuto, Artifact: deploy.Artifact{SHA256: "aaaa"}}
	prior := replicaModel{
		State: types.StringValue("running"), Version: types.StringValue("v1"), Service: types.StringValue("process"),
		ArtifactSHA256: types.StringValue("aaaa"), ConfigHash: types.StringValue(s.configHash(h)),
	}
	r := s.desiredReplica(h, map[string]replicaModel{h.Key(): prior})
	if r.Version.ValueString() != "v1" || r.Service.ValueString() != "process" || r.ConfigHash != prior.ConfigHash || r.State.ValueString() != "running" {
		t.Errorf("unchanged host: %+v", r)
	}
	s.Artifact.SHA256 = "bbbb"
	if r := s.desiredReplica(h, map[string]replicaModel{h.Key(): prior}); !r.Version.IsUnknown() || r.ArtifactSHA256.ValueString() != "bbbb" {
		t.Errorf("new binary: version %v, artifact %v; want unknown, bbbb", r.Version, r.ArtifactSHA256)
	}
	if r := s.desiredReplica(h, nil); !r.Service.IsUnknown() || !r.Version.IsUnknown() {
		t.Errorf("new host with service auto: %+v", r)
	}
	s.AdminToken = ""
	if r := s.desiredReplica(h, nil); !r.ConfigHash.IsUnknown() {
		t.Errorf("hash known before the admin token is generated: %v", r.ConfigHash)
	}
}

func TestExpandSHA(t *testing.T) {
	full := "0123456789abcdef"
	for _, c := range []struct{ id, want string }{{"0123456789ab", full}, {"", ""}, {"ffffffffffff", "ffffffffffff"}} {
		if got := expandSHA(c.id, "x", full); got != c.want {
			t.Errorf("expandSHA(%q) = %q, want %q", c.id, got, c.want)
		}
	}
}

func TestFullyKnown(t *testing.T) {
	ctx := context.Background()
	if !fullyKnown(ctx, types.StringValue("a"), types.StringNull()) {
		t.Error("known values reported unknown")
	}
	if fullyKnown(ctx, types.StringValue("a"), types.StringUnknown()) {
		t.Error("unknown value reported known")
	}
}
