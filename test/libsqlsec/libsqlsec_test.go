// Package libsqlsec checks `dwk libsql`'s secure defaults as a process:
// it refuses to listen beyond loopback without authentication, and it
// serves TLS that libSQL clients verify against a private CA.
package libsqlsec

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/dwk/fleet/appliance/fleet/internaltls"
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/test/procs"
)

func TestRefusesOpenListenerBeyondLoopback(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"user API", []string{"--http-listen-addr", "0.0.0.0:0"}, "refusing to serve the user API on 0.0.0.0:0"},
		{"admin API", []string{"--http-listen-addr", "127.0.0.1:0", "--admin-listen-addr", "0.0.0.0:0"}, "refusing to serve the admin API on 0.0.0.0:0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"libsql", "--db-path", t.TempDir()}, tc.args...)
			p := procs.Start(t, "dwk libsql", procs.Binary(t), nil, args...)
			code, err := p.Wait(30 * time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if out := p.Output(); code == 0 || !strings.Contains(out, tc.want) || !strings.Contains(out, "--insecure-no-auth") {
				t.Fatalf("exit %d; want a refusal saying %q and naming --insecure-no-auth:\n%s", code, tc.want, out)
			}
		})
	}
	t.Run("insecure-no-auth", func(t *testing.T) {
		p := procs.Start(t, "dwk libsql", procs.Binary(t), nil, "libsql", "--db-path", t.TempDir(), "--http-listen-addr", "0.0.0.0:0", "--insecure-no-auth")
		p.WaitFor(regexp.MustCompile(`serving Hrana on http://`), 30*time.Second)
	})
}

func TestTLSWithPrivateCA(t *testing.T) {
	dir := t.TempDir()
	ca, err := internaltls.NewCA("libsql", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := internaltls.IssueMember(ca, "libsql", "libsql", []string{"127.0.0.1"}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	der, _ := x509.MarshalPKIXPublicKey(pub)
	files := map[string][]byte{
		"ca.pem": ca.Cert, "cert.pem": srv.Cert, "key.pem": srv.Key,
		"jwt.pem": pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}),
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	p := procs.Start(t, "dwk libsql", procs.Binary(t), nil, "libsql", "--db-path", filepath.Join(dir, "db"),
		"--http-listen-addr", "127.0.0.1:0", "--tls-cert-file", filepath.Join(dir, "cert.pem"), "--tls-key-file", filepath.Join(dir, "key.pem"),
		"--auth-jwt-key-file", filepath.Join(dir, "jwt.pem"))
	url := p.WaitFor(regexp.MustCompile(`serving Hrana on (https://\S+)`), 30*time.Second)[1]
	token, err := jwt.NewWithClaims(jwt.SigningMethodEdDSA, jwt.MapClaims{"exp": time.Now().Add(time.Hour).Unix()}).SignedString(priv)
	if err != nil {
		t.Fatal(err)
	}
	sql := "SELECT 1"
	exec := func(cfg hranaclient.Config) error {
		cfg.MaxAttempts = 1
		c, err := hranaclient.New(cfg)
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, err = c.Execute(ctx, hrana.Stmt{SQL: &sql})
		return err
	}
	if err := exec(hranaclient.Config{URL: url, AuthToken: token, CAFile: filepath.Join(dir, "ca.pem")}); err != nil {
		t.Errorf("https with the CA: %v", err)
	}
	if err := exec(hranaclient.Config{URL: strings.Replace(url, "https://", "wss://", 1), AuthToken: token, CAFile: filepath.Join(dir, "ca.pem")}); err != nil {
		t.Errorf("wss URL with the CA: %v", err)
	}
	if err := exec(hranaclient.Config{URL: url, AuthToken: token}); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("https without the CA: err %v, want a certificate error", err)
	}
	if err := exec(hranaclient.Config{URL: strings.Replace(url, "https://", "http://", 1), AuthToken: token}); err == nil {
		t.Error("plain http to the TLS listener succeeded")
	}
	if err := exec(hranaclient.Config{URL: url, CAFile: filepath.Join(dir, "ca.pem")}); err == nil || !strings.Contains(err.Error(), "Unauthorized") {
		t.Errorf("https without a token: err %v, want Unauthorized", err)
	}
}
