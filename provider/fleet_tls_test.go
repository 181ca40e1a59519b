package provider

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/dwk/fleet/appliance/fleet/internaltls"
)

// checkInternalTLS checks each replica's internal listener: a plaintext
// request is refused, and a TLS handshake presents a certificate of the
// fleet CA ca that names the host's member (its SSH address, the default
// member id).
func checkInternalTLS(hosts []testHost, internals []string, fleet string, ca []byte) func(*terraform.State) error {
	return func(*terraform.State) error {
		roots := x509.NewCertPool()
		if !roots.AppendCertsFromPEM(ca) {
			return fmt.Errorf("internal_ca_certificate holds no certificate")
		}
		c := http.Client{Timeout: 5 * time.Second}
		for i, h := range hosts {
			resp, err := c.Get("http://" + internals[i] + "/")
			if err == nil {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "HTTPS") {
					return fmt.Errorf("plain HTTP to %s's internal listener: %s %q, want a refusal naming HTTPS", h.ssh.Address, resp.Status, b)
				}
			}
			conn, err := tls.Dial("tcp", internals[i], &tls.Config{InsecureSkipVerify: true})
			if err != nil && !strings.Contains(err.Error(), "certificate") {
				return fmt.Errorf("TLS to %s's internal listener: %v", h.ssh.Address, err)
			}
			if conn == nil {
				continue // refused for want of a client certificate, after the server's was seen
			}
			leaf := conn.ConnectionState().PeerCertificates[0]
			conn.Close()
			if _, err := leaf.Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}); err != nil {
				return fmt.Errorf("%s's internal certificate does not chain to internal_ca_certificate: %v", h.ssh.Address, err)
			}
			if m, ok := internaltls.MemberOf(leaf, fleet); !ok || m != h.ssh.Address {
				return fmt.Errorf("%s's internal certificate names member %q, want %q", h.ssh.Address, m, h.ssh.Address)
			}
		}
		return nil
	}
}

// checkCountersAcross increments counters through every replica in turn:
// each object is held by one replica, so the others forward to it over
// the internal links, and every count must follow the one before.
func checkCountersAcross(hosts []testHost) func(*terraform.State) error {
	return func(*terraform.State) error {
		for n := range 4 {
			name := fmt.Sprintf("tls-%d-%d", n, time.Now().UnixNano())
			for i, h := range hosts {
				if v, err := increment(h, name); err != nil || v != i+1 {
					return fmt.Errorf("increment %s through %s: count %d (%v), want %d", name, h.ssh.Address, v, err, i+1)
				}
			}
		}
		return nil
	}
}
