package dwkstorage

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/caddyserver/certmagic"
	"go.uber.org/zap/zaptest"

	"github.com/dwk/fleet/test/freeport"
	"github.com/dwk/fleet/test/pebbleserver"
)

// TestSharedCertificate runs three certmagic instances, each with a
// storage of its own on a connection of its own to one coordination
// database, as three front doors would, and has them all obtain a
// certificate for one domain from a real ACME server (Pebble) at once:
// exactly one certificate is issued, and all three serve it.
func TestSharedCertificate(t *testing.T) {
	acme := pebbleserver.Start(t)
	db := newDatabase(t)
	ctx := ctxFor(t)
	const domain = "fleet.example.com"

	var obtained atomic.Int32
	cfgs := make([]*certmagic.Config, 3)
	for i := range cfgs {
		k := newKV(t, db.open(t), Options{Owner: "replica-" + strconv.Itoa(i)})
		cfgs[i] = newCertMagic(t, acme, k, fmt.Sprintf("replica-%d", i), &obtained)
	}

	var wg sync.WaitGroup
	errs := make([]error, len(cfgs))
	for i, cfg := range cfgs {
		wg.Go(func() { errs[i] = cfg.ObtainCertSync(ctx, domain) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("replica %d: obtain: %v", i, err)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	if n := acme.Issued(); n != 1 {
		t.Errorf("the ACME server issued %d certificates, want 1; its log:\n%s", n, acme.Output())
	}
	if n := obtained.Load(); n != 1 {
		t.Errorf("%d replicas obtained a certificate, want 1", n)
	}
	var first string
	for i, cfg := range cfgs {
		cert, err := cfg.CacheManagedCertificate(ctx, domain)
		if err != nil {
			t.Fatalf("replica %d: load the certificate: %v", i, err)
		}
		if cert.Leaf == nil || cert.Leaf.Subject.CommonName != domain && !containsName(cert.Names, domain) {
			t.Errorf("replica %d: certificate for %v, want %s", i, cert.Names, domain)
		}
		if i == 0 {
			first = cert.Hash()
		} else if cert.Hash() != first {
			t.Errorf("replica %d serves another certificate than replica 0", i)
		}
	}
}

// TestRotatedSecret has a front door obtain a certificate, then one with
// another secret (the fleet secret was rotated) start over the same
// database: it obtains the certificate and the account again instead of
// failing, and a third with the new secret loads them.
func TestRotatedSecret(t *testing.T) {
	acme := pebbleserver.Start(t)
	db := newDatabase(t)
	ctx := ctxFor(t)
	const domain = "fleet.example.com"
	var obtained atomic.Int32

	before := newCertMagic(t, acme, newKV(t, db.open(t), Options{}), "before", &obtained)
	if err := before.ObtainCertSync(ctx, domain); err != nil {
		t.Fatal(err)
	}
	rotated := Options{Secret: []byte("the rotated fleet secret, 0123456789")}
	after := newCertMagic(t, acme, newKV(t, db.open(t), rotated), "after", &obtained)
	if err := after.ManageSync(ctx, []string{domain}); err != nil {
		t.Fatalf("managing %s after the secret changed: %v", domain, err)
	}
	if n := acme.Issued(); n != 2 {
		t.Errorf("the ACME server issued %d certificates, want 2 (one per secret); its log:\n%s", n, acme.Output())
	}
	again := newCertMagic(t, acme, newKV(t, db.open(t), rotated), "again", &obtained)
	if _, err := again.CacheManagedCertificate(ctx, domain); err != nil {
		t.Fatalf("loading the certificate obtained under the new secret: %v", err)
	}
	if n := acme.Issued(); n != 2 {
		t.Errorf("the ACME server issued %d certificates, want still 2", n)
	}
}

// newCertMagic returns a certmagic config over storage k that obtains
// certificates from acme and counts them in obtained.
func newCertMagic(t *testing.T, acme *pebbleserver.Server, k *KV, name string, obtained *atomic.Int32) *certmagic.Config {
	t.Helper()
	log := zaptest.NewLogger(t).Named(name)
	var cfg *certmagic.Config
	cache := certmagic.NewCache(certmagic.CacheOptions{
		GetConfigForCert: func(certmagic.Certificate) (*certmagic.Config, error) { return cfg, nil },
		Logger:           log,
	})
	t.Cleanup(cache.Stop)
	cfg = certmagic.New(cache, certmagic.Config{
		Storage: k,
		Logger:  log,
		OnEvent: func(_ context.Context, event string, _ map[string]any) error {
			if event == "cert_obtained" {
				obtained.Add(1)
			}
			return nil
		},
	})
	cfg.Issuers = []certmagic.Issuer{certmagic.NewACMEIssuer(cfg, certmagic.ACMEIssuer{
		CA: acme.DirectoryURL, Email: "ops@example.com", Agreed: true, TrustedRoots: acme.Roots,
		DisableHTTPChallenge: true, ListenHost: "127.0.0.1", AltTLSALPNPort: freeport.Port(t, "127.0.0.1"),
		Logger: log,
	})}
	return cfg
}

func containsName(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}
