package internaltls

import (
	"crypto/ed25519"
	"crypto/hkdf"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"time"
)

// The validity of certificates derived from a fleet secret. They are
// fixed, so that the same secret gives the same bytes on every apply;
// the keys are as long-lived as the secret they come from, and are
// replaced by changing it (docs/security.md).
var (
	derivedNotBefore = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	derivedNotAfter  = time.Date(2046, 1, 1, 0, 0, 0, 0, time.UTC)
)

// HKDF labels of the derived keys. A new version of the derivation takes
// new labels.
const (
	derivedCALabel     = "dwk fleet internal CA v1"
	derivedMemberLabel = "dwk fleet member key v1"
)

// SecretCA is the fleet CA determined by a fleet secret: an Ed25519 CA key
// and certificate, and member certificates whose keys also come from the
// secret. Everything it makes is deterministic, so Terraform can render a
// fleet's certificates on every plan with no key kept in its state, and
// the bytes change only when the secret, the fleet name or the member id
// does. Anyone with the fleet secret can issue members, which the secret
// (it keys the request MACs) allows already.
type SecretCA struct {
	fleet string
	key   ed25519.PrivateKey
	cert  *x509.Certificate
	pem   []byte
	seed  []byte
}

// FromSecret derives the CA of fleet from its secret.
func FromSecret(secret []byte, fleet string) (*SecretCA, error) {
	if len(secret) == 0 {
		return nil, errors.New("internaltls: the fleet secret is empty")
	}
	if fleet == "" {
		return nil, errors.New("internaltls: the fleet name is empty")
	}
	seed, err := hkdf.Key(sha256.New, secret, []byte(fleet), derivedCALabel, ed25519.SeedSize)
	if err != nil {
		return nil, err
	}
	key := ed25519.NewKeyFromSeed(seed)
	tmpl := &x509.Certificate{
		SerialNumber:          derivedSerial("ca", fleet),
		Subject:               pkix.Name{CommonName: "dwk fleet " + fleet + " CA", Organization: []string{"dwk"}},
		NotBefore:             derivedNotBefore,
		NotAfter:              derivedNotAfter,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(nil, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, fmt.Errorf("internaltls: derive the CA: %w", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &SecretCA{fleet: fleet, key: key, cert: cert, seed: seed,
		pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}, nil
}

// CertPEM is the CA certificate, what every member trusts and what
// `dwk status --ca-file` takes.
func (c *SecretCA) CertPEM() []byte { return c.pem }

// Member is the certificate and key of member.
func (c *SecretCA) Member(member string) (PEM, error) {
	if member == "" {
		return PEM{}, errors.New("internaltls: member id is empty")
	}
	seed, err := hkdf.Key(sha256.New, c.seed, []byte(member), derivedMemberLabel, ed25519.SeedSize)
	if err != nil {
		return PEM{}, err
	}
	key := ed25519.NewKeyFromSeed(seed)
	tmpl := memberTemplate(c.fleet, member, derivedSerial("member", c.fleet, member), derivedNotBefore, derivedNotAfter)
	der, err := x509.CreateCertificate(nil, tmpl, c.cert, key.Public(), c.key)
	if err != nil {
		return PEM{}, fmt.Errorf("internaltls: issue member %q: %w", member, err)
	}
	kb, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return PEM{}, err
	}
	return PEM{
		Cert: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		Key:  pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kb}),
	}, nil
}

// derivedSerial is a positive 127-bit serial number from parts.
func derivedSerial(parts ...string) *big.Int {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	sum := h.Sum(nil)
	sum[0] &= 0x7f
	return new(big.Int).SetBytes(sum[:16])
}
