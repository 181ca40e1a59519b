package provider

import (
	"context"
	"path"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/internaltls"
	"github.com/dwk/fleet/provider/internal/deploy"
)

func TestResolveHostsDefaults(t *testing.T) {
	hs := resolveHosts("prod", []hostModel{
		{sshHostModel: sshHostModel{Address: types.StringValue("10.0.0.5")}},
		{sshHostModel: sshHostModel{Address: types.StringValue("local")}, InstallDir: types.StringValue("/srv/a")},
		{sshHostModel: sshHostModel{Address: types.StringValue("local")}, InstallDir: types.StringValue("/srv/b"), Member: types.StringValue("b"), Public: types.StringValue("127.0.0.1:9000")},
	}, [3]int64{8787, 8788, 8789}, sshDefaults{})
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
	h := resolveHosts("prod", []hostModel{{sshHostModel: sshHostModel{Address: types.StringValue("10.0.0.5")}}}, [3]int64{8787, 8788, 8789}, sshDefaults{})[0]
	s := &fleetSpec{Name: "prod", Mode: "local", AdminToken: "tok", DrainTimeout: 30e9, LeaseTTL: 10e9, LogLevel: "info", Salt: "salt-1"}
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
	// Salted: the same config hashes differently in another fleet, and
	// never to dwk's own (unsalted) hash of it.
	s3 := *s
	s3.Salt = "salt-2"
	if s.configHash(h) == s3.configHash(h) || s.configHash(h) == s.render(h).Hash() {
		t.Error("the config hash does not depend on the fleet's salt")
	}
	// The admin token is left out (a plan cannot know a generated one);
	// admin_token_version stands for it.
	s4 := *s
	s4.AdminToken = "other-token"
	if s.configHash(h) != s4.configHash(h) {
		t.Error("the admin token changes the config hash; a plan without it would always differ")
	}
	s4.AdminTokenVersion = "2"
	if s.configHash(h) == s4.configHash(h) {
		t.Error("admin_token_version does not change the config hash, so it would not roll the fleet")
	}
	// What Observe reads back hashes as the spec does, whatever token the host holds.
	file := s4.render(h)
	file.Admin.Token = config.Literal("token-on-the-host")
	if got := s4.observedHash(deploy.Observation{File: file, Reported: file.Hash()}); got != s4.configHash(h) {
		t.Errorf("observed hash %q, want the spec's %q", got, s4.configHash(h))
	}
	if got := s4.observedHash(deploy.Observation{File: file, Reported: "older"}); got != restartPending {
		t.Errorf("a replica running another config than its dwk.json: %q, want %q", got, restartPending)
	}
}

func TestDesiredReplica(t *testing.T) {
	h := resolveHosts("prod", []hostModel{{sshHostModel: sshHostModel{Address: types.StringValue("10.0.0.5")}}}, [3]int64{8787, 8788, 8789}, sshDefaults{})[0]
	s := &fleetSpec{Name: "prod", Mode: "local", AdminToken: "tok", Service: deploy.ServiceAuto, Artifact: deploy.Artifact{SHA256: "aaaa"}, Salt: "salt"}
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
	s.Salt = ""
	if r := s.desiredReplica(h, nil); !r.ConfigHash.IsUnknown() {
		t.Errorf("hash known before the fleet has its salt: %v", r.ConfigHash)
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

// TestRenderInternalTLS: a central fleet's replicas get a member
// certificate of the CA derived from the secret, in a pki directory named
// by its content (so a new secret is a new config), and the libSQL CA
// copy goes in the same directory.
func TestRenderInternalTLS(t *testing.T) {
	h := resolveHosts("prod", []hostModel{{sshHostModel: sshHostModel{Address: types.StringValue("10.0.0.5")}}}, [3]int64{8787, 8788, 8789}, sshDefaults{})[0]
	spec := func(secret string) *fleetSpec {
		ca, err := internaltls.FromSecret([]byte(secret), "prod")
		if err != nil {
			t.Fatal(err)
		}
		return &fleetSpec{Name: "prod", Mode: "central", Secret: secret, AdminToken: "tok", DrainTimeout: 30e9, LeaseTTL: 10e9,
			LogLevel: "info", Salt: "s", LibSQL: &config.LibSQL{URL: "https://db:8080"}, S3: &config.S3{Bucket: "b"}, CA: ca}
	}
	s := spec(testSecret)
	c := s.render(h)
	it := c.Listen.InternalTLS
	if it == nil || !strings.HasPrefix(it.CertFile, "/opt/dwk/prod/pki/") || path.Dir(it.CAFile) != path.Dir(it.KeyFile) {
		t.Fatalf("internal_tls = %+v, want files in /opt/dwk/prod/pki/<id>/", it)
	}
	p, err := s.pki(h)
	if err != nil || p == nil || len(p.Files) != 3 || path.Base(path.Dir(it.CertFile)) != p.ID {
		t.Fatalf("pki = %+v, %v; want three files in the directory internal_tls names", p, err)
	}
	if s2 := spec(testSecret + "x"); s2.configHash(h) == s.configHash(h) {
		t.Error("a new secret (a new CA) does not change the config hash")
	}
	s.LibSQLCA = []byte("-----BEGIN CERTIFICATE-----\n")
	c2 := s.render(h)
	if c2.Storage.LibSQL.CAFile == "" || path.Dir(c2.Storage.LibSQL.CAFile) == path.Dir(it.CAFile) {
		t.Errorf("libsql.ca_file = %q; want it in a new pki directory", c2.Storage.LibSQL.CAFile)
	}
	if s.LibSQL.CAFile != "" {
		t.Error("render changed the spec's libsql")
	}
	s.CA = nil // insecure_plaintext_internal
	if c := s.render(h); c.Listen.InternalTLS != nil {
		t.Errorf("plaintext fleet rendered internal_tls %+v", c.Listen.InternalTLS)
	}
}

// TestWorkerConfig: service bindings, secret files and a consumer's
// max_concurrency reach dwk.json; a secret is a file reference, never a
// value.
func TestWorkerConfig(t *testing.T) {
	w := workerModel{
		Name: types.StringValue("api"),
		Bindings: &bindingsModel{
			Services:    map[string]string{"AUTH": "auth"},
			SecretFiles: map[string]string{"STRIPE": "/etc/dwk/stripe"},
		},
		Consumers:   []consumerModel{{Queue: types.StringValue("jobs"), MaxConcurrency: types.Int64Value(4)}},
		ProjectHash: types.StringValue("0123456789abcdef0123"),
	}
	c := w.config(map[string]string{"API_KEY": "k3y"})
	if c.Project != "projects/0123456789ab.dwkb" {
		t.Errorf("project = %q, want the artifact's path under the install directory", c.Project)
	}
	if k := c.Bindings.Secrets["API_KEY"]; k == nil || k.Value != "k3y" {
		t.Errorf("secret API_KEY = %+v, want the write-only value", k)
	}
	if c.Bindings.Services["AUTH"] != "auth" || c.Consumers[0].MaxConcurrency != 4 {
		t.Errorf("config = %+v", c)
	}
	s := c.Bindings.Secrets["STRIPE"]
	if s == nil || s.File != "/etc/dwk/stripe" || s.Value != "" || s.Env != "" {
		t.Errorf("secret STRIPE = %+v, want a reference to /etc/dwk/stripe", s)
	}
}
