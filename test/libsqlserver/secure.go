package libsqlserver

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/dwk/fleet/appliance/fleet/internaltls"
)

// StartSecure returns a `dwk libsql` set up as production wants it: both
// APIs over TLS with a certificate of a private CA (CAFile), user API
// tokens checked against an Ed25519 key (AuthToken is a full-access token
// that expires in an hour), and the admin API behind AdminKey. An external
// server (DWK_TEST_LIBSQL_URL) is returned as Start returns it.
func StartSecure(t testing.TB, extraArgs ...string) *Server {
	t.Helper()
	if os.Getenv("DWK_TEST_LIBSQL_URL") != "" {
		return Start(t, extraArgs...)
	}
	dir := t.TempDir()
	ca, err := internaltls.NewCA("libsql", 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := internaltls.IssueMember(ca, "libsql", "libsql", []string{"127.0.0.1", "localhost"}, 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	key := make([]byte, 20)
	rand.Read(key)
	files := map[string][]byte{
		"ca.pem": ca.Cert, "cert.pem": srv.Cert, "key.pem": srv.Key,
		"jwt.pem": pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}),
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	token, err := jwt.NewWithClaims(jwt.SigningMethodEdDSA, jwt.MapClaims{"exp": time.Now().Add(time.Hour).Unix()}).SignedString(priv)
	if err != nil {
		t.Fatal(err)
	}
	adminKey := "admin-" + hex.EncodeToString(key)
	s := Start(t, append([]string{
		"--tls-cert-file", filepath.Join(dir, "cert.pem"), "--tls-key-file", filepath.Join(dir, "key.pem"),
		"--auth-jwt-key-file", filepath.Join(dir, "jwt.pem"), "--admin-auth-key", adminKey,
	}, extraArgs...)...)
	s.AuthToken, s.AdminKey, s.CAFile = token, adminKey, filepath.Join(dir, "ca.pem")
	return s
}
