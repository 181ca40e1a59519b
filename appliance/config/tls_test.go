package config

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// centralTLS is a valid central-mode config whose listen.tls is tls.
func centralTLS(tls string) string {
	return `{"fleet": {"secret": "0123456789abcdef0123456789abcdef"},
	  "listen": {"public": "127.0.0.1:8443", "tls": ` + tls + `},
	  "storage": {"mode": "central", "libsql": {"url": "http://127.0.0.1:8080"}, "s3": {"bucket": "dwk-test"}}}`
}

func TestACMECAValidation(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root.pem")
	writeFile(t, root, selfSignedPEM(t))
	key := filepath.Join(dir, "key.pem")
	writeFile(t, key, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("not a key")}))
	text := filepath.Join(dir, "text.pem")
	writeFile(t, text, []byte("hello\n"))
	bad := filepath.Join(dir, "bad.pem")
	writeFile(t, bad, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte("garbage")}))

	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	if err := decodeValidate(t, centralTLS(`{"domains": ["fleet.test"], "acme_ca": "https://ca.test:14000/dir", "acme_ca_root": `+q(root)+`}`)); err != nil {
		t.Fatalf("valid private CA: %v", err)
	}
	for _, tc := range []struct{ name, ca, root, want string }{
		{"http CA", "http://ca.test/dir", "", "scheme must be one of https"},
		{"relative CA", "ca.test/dir", "", "absolute URL"},
		{"missing root", "https://ca.test/dir", filepath.Join(dir, "nothing.pem"), "cannot read"},
		{"key, not certificate", "https://ca.test/dir", key, `"PRIVATE KEY" block`},
		{"no PEM", "https://ca.test/dir", text, "no PEM certificate"},
		{"unparsable certificate", "https://ca.test/dir", bad, "does not parse"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := decodeValidate(t, centralTLS(`{"domains": ["fleet.test"], "acme_ca": `+q(tc.ca)+`, "acme_ca_root": `+q(tc.root)+`}`))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v does not say %q", err, tc.want)
			}
			paths := problemPaths(t, err)
			if len(paths) != 1 || !strings.HasPrefix(paths[0], "listen.tls.acme_ca") {
				t.Errorf("problem paths %v, want one at listen.tls.acme_ca*", paths)
			}
		})
	}
}

func TestSharedCertificatesDefault(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      bool
	}{
		{"central, default", centralTLS(`{"domains": ["fleet.test"]}`), true},
		{"central, opted out", centralTLS(`{"domains": ["fleet.test"], "shared": false}`), false},
		{"central, explicit", centralTLS(`{"domains": ["fleet.test"], "shared": true}`), true},
		{"central, no TLS", strings.Replace(centralTLS(`null`), `, "tls": null`, "", 1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Decode([]byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			c.ApplyDefaults()
			if err := c.Validate(nil); err != nil {
				t.Fatal(err)
			}
			if got := c.SharedCertificates(); got != tc.want {
				t.Errorf("SharedCertificates() = %v, want %v", got, tc.want)
			}
		})
	}
	err := decodeValidate(t, `{"listen": {"tls": {"domains": ["fleet.test"]}}}`)
	if paths := strings.Join(problemPaths(t, err), ","); paths != "listen.tls" {
		t.Errorf("tls in local mode (which serves listen.public without a front door): problems at %s, want listen.tls", paths)
	}
}

func selfSignedPEM(t *testing.T) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
