package provider

import (
	"path"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/provider/internal/deploy"
)

// TestRenderTLS: tls reaches listen.tls, with the ACME CA's root copied
// into the pki directory; a front door on 443 needs the capability for
// port 80 too; per-replica certificates in central mode live in the data
// directory; the replicas' URLs are https.
func TestRenderTLS(t *testing.T) {
	hosts := func(port int64) []*hostSpec {
		return resolveHosts("web", []hostModel{{sshHostModel: sshHostModel{Address: types.StringValue("10.0.0.5")}}}, [3]int64{port, 8788, 8789}, sshDefaults{})
	}
	root := []byte("-----BEGIN CERTIFICATE-----\nroot\n-----END CERTIFICATE-----\n")
	s := &fleetSpec{Name: "web", Mode: "central", AdminToken: "tok", DrainTimeout: 30e9, LeaseTTL: 10e9, LogLevel: "info", Salt: "s",
		LibSQL: &config.LibSQL{URL: "https://db:8080"}, S3: &config.S3{Bucket: "b"},
		TLS: &config.TLS{Domains: []string{"app.example.com"}, Email: "ops@example.com", ACMECA: "https://ca.internal/dir"}, ACMERoot: root}
	h := hosts(443)[0]
	c := s.render(h)
	tl := c.Listen.TLS
	if tl == nil || tl.Domains[0] != "app.example.com" || tl.Email != "ops@example.com" || tl.ACMECA != "https://ca.internal/dir" {
		t.Fatalf("listen.tls = %+v, want the tls attribute", tl)
	}
	p, err := s.pki(h)
	if err != nil || p == nil || string(p.Files[pkiACMERoot]) != string(root) {
		t.Fatalf("pki = %+v, %v; want the ACME root in it", p, err)
	}
	if want := path.Join(h.InstallDir, deploy.PKIDir(p.ID), pkiACMERoot); tl.ACMECARoot != want {
		t.Errorf("acme_ca_root = %q, want %q", tl.ACMECARoot, want)
	}
	if s.TLS.ACMECARoot != "" {
		t.Error("render changed the spec's tls")
	}
	if !deploy.Privileged(s.listens(h)...) {
		t.Errorf("a front door on 443 with tls binds %v and is not privileged", s.listens(h))
	}
	if h8 := hosts(8443)[0]; deploy.Privileged(s.listens(h8)...) {
		t.Errorf("a front door on 8443 binds %v: no port below 1024", s.listens(h8))
	}
	plain := *s
	plain.TLS = nil
	if got := plain.listens(h); len(got) != 3 {
		t.Errorf("a central fleet without tls binds %v, want public, admin and internal", got)
	}

	if c := s.render(h); c.Storage.DataDir != "" || !c.SharedCertificates() {
		t.Errorf("central fleet: data_dir %q, shared %v; want shared certificates and no data dir", c.Storage.DataDir, c.SharedCertificates())
	}
	no := false
	s.TLS.Shared = &no
	if c := s.render(h); !strings.HasSuffix(c.Storage.DataDir, "/data") || c.SharedCertificates() {
		t.Errorf("central fleet, tls.shared false: data_dir %q, shared %v; want the host's data dir", c.Storage.DataDir, c.SharedCertificates())
	}

	h.HTTPS = true
	if u := h.URL(); u != "https://10.0.0.5:443" {
		t.Errorf("url = %q, want https", u)
	}
}
