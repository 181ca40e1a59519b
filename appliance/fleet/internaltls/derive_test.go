package internaltls

import (
	"bytes"
	"context"
	"crypto/tls"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSecretCAIsDeterministic(t *testing.T) {
	a1, err := FromSecret([]byte("secret-one"), "prod")
	if err != nil {
		t.Fatal(err)
	}
	a2, _ := FromSecret([]byte("secret-one"), "prod")
	if !bytes.Equal(a1.CertPEM(), a2.CertPEM()) {
		t.Fatal("the same secret and fleet gave two CA certificates")
	}
	m1, _ := a1.Member("10.0.0.1:8788")
	m2, _ := a2.Member("10.0.0.1:8788")
	if !bytes.Equal(m1.Cert, m2.Cert) || !bytes.Equal(m1.Key, m2.Key) {
		t.Fatal("the same member gave two certificates")
	}
	for name, other := range map[string]func() (*SecretCA, error){
		"another secret": func() (*SecretCA, error) { return FromSecret([]byte("secret-two"), "prod") },
		"another fleet":  func() (*SecretCA, error) { return FromSecret([]byte("secret-one"), "staging") },
	} {
		o, err := other()
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(o.CertPEM(), a1.CertPEM()) {
			t.Errorf("%s gave the same CA", name)
		}
	}
	m3, _ := a1.Member("10.0.0.2:8788")
	if bytes.Equal(m3.Key, m1.Key) {
		t.Error("two members share a key")
	}
	if _, err := FromSecret(nil, "prod"); err == nil {
		t.Error("an empty secret made a CA")
	}
	if _, err := a1.Member(""); err == nil {
		t.Error("an empty member id got a certificate")
	}
}

// TestSecretCAMembersHandshake loads two derived members through Load (as
// dwk serve does) and completes a mutual TLS handshake between them; a
// member of another secret's CA is refused.
func TestSecretCAMembersHandshake(t *testing.T) {
	ca, err := FromSecret([]byte("s3cr3t"), "prod")
	if err != nil {
		t.Fatal(err)
	}
	a := loadDerived(t, ca, "prod", "a")
	b := loadDerived(t, ca, "prod", "b")
	if err := handshake(a.ServerConfig(), b.ClientConfig("a")); err != nil {
		t.Fatalf("b dialling a: %v", err)
	}
	if err := handshake(a.ServerConfig(), b.ClientConfig("c")); err == nil || !strings.Contains(err.Error(), `"a"`) {
		t.Fatalf("b dialling c reached a: %v", err)
	}
	foreign, _ := FromSecret([]byte("other"), "prod")
	x := loadDerived(t, foreign, "prod", "b")
	if err := handshake(a.ServerConfig(), x.ClientConfig("a")); err == nil {
		t.Fatal("a member of another CA completed a handshake")
	}
}

func loadDerived(t *testing.T, ca *SecretCA, fleet, member string) *Identity {
	t.Helper()
	dir := t.TempDir()
	m, err := ca.Member(member)
	if err != nil {
		t.Fatal(err)
	}
	f := Files{CA: filepath.Join(dir, "ca.pem"), Cert: filepath.Join(dir, "cert.pem"), Key: filepath.Join(dir, "key.pem")}
	for p, b := range map[string][]byte{f.CA: ca.CertPEM(), f.Cert: m.Cert, f.Key: m.Key} {
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	id, err := Load(f, fleet, member)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func handshake(server, client *tls.Config) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer ln.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	errs := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			errs <- err
			return
		}
		defer c.Close()
		s := tls.Server(c, server)
		if err := s.HandshakeContext(ctx); err != nil {
			errs <- err
			return
		}
		// A TLS 1.3 server learns of a refused certificate on its first read.
		_, err = s.Read(make([]byte, 1))
		errs <- err
	}()
	raw, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		return err
	}
	c := tls.Client(raw, client)
	cerr := c.HandshakeContext(ctx)
	if cerr == nil {
		_, cerr = c.Write([]byte("x"))
	}
	c.Close()
	serr := <-errs
	if cerr != nil {
		return cerr
	}
	return serr
}
