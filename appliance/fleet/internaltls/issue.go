package internaltls

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/url"
	"time"
)

// DefaultValidity is how long `dwk certs` certificates are valid.
const DefaultValidity = 2 * 365 * 24 * time.Hour

// PEM is a certificate and its private key, PEM-encoded.
type PEM struct {
	Cert, Key []byte
}

// NewCA makes a fleet CA (ECDSA P-256) valid for validity.
func NewCA(fleet string, validity time.Duration) (PEM, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return PEM{}, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "dwk fleet " + fleet + " CA", Organization: []string{"dwk"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(validity),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return PEM{}, err
	}
	return encode(der, key)
}

// IssueMember issues the certificate of member of fleet from ca. hosts
// (DNS names or IP addresses) are added as SANs for tools that check host
// names; dwk itself checks the member URI only.
func IssueMember(ca PEM, fleet, member string, hosts []string, validity time.Duration) (PEM, error) {
	if member == "" {
		return PEM{}, errors.New("internaltls: member id is empty")
	}
	caCert, caKey, err := decode(ca)
	if err != nil {
		return PEM{}, fmt.Errorf("internaltls: CA: %w", err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return PEM{}, err
	}
	now := time.Now()
	tmpl := memberTemplate(fleet, member, serial(), now.Add(-time.Hour), now.Add(validity))
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else if h != "" {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	if err != nil {
		return PEM{}, err
	}
	return encode(der, key)
}

// memberTemplate is the certificate of member of fleet: its URI SAN, valid
// for server and client authentication.
func memberTemplate(fleet, member string, serial *big.Int, notBefore, notAfter time.Time) *x509.Certificate {
	return &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: member, Organization: []string{"dwk fleet " + fleet}},
		NotBefore:    notBefore,
		NotAfter:     notAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
		URIs:         []*url.URL{MemberURI(fleet, member)},
	}
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	return n
}

func encode(der []byte, key *ecdsa.PrivateKey) (PEM, error) {
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return PEM{}, err
	}
	return PEM{
		Cert: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		Key:  pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}),
	}, nil
}

func decode(p PEM) (*x509.Certificate, *ecdsa.PrivateKey, error) {
	cb, _ := pem.Decode(p.Cert)
	kb, _ := pem.Decode(p.Key)
	if cb == nil || kb == nil {
		return nil, nil, errors.New("not PEM")
	}
	cert, err := x509.ParseCertificate(cb.Bytes)
	if err != nil {
		return nil, nil, err
	}
	key, err := x509.ParseECPrivateKey(kb.Bytes)
	if err != nil {
		return nil, nil, fmt.Errorf("key: %w (want an EC PRIVATE KEY)", err)
	}
	return cert, key, nil
}
