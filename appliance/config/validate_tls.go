package config

import (
	"crypto/x509"
	"encoding/pem"
	"os"
)

// validateInternalTLS checks listen.internal_tls; that the certificate
// names this member and chains to the CA is checked when the replica
// starts (package internaltls).
func (c *Config) validateInternalTLS(ps *Problems) {
	t := c.Listen.InternalTLS
	if t == nil {
		return
	}
	if c.Storage.Mode != ModeCentral {
		ps.add("listen.internal_tls", `is only used in central mode; set storage.mode to "central" or remove it`)
		return
	}
	if t.CAFile == "" {
		ps.add("listen.internal_tls.ca_file", "is required: the fleet CA certificate(s) (dwk certs writes ca.pem)")
	} else {
		checkRoots(ps, "listen.internal_tls.ca_file", t.CAFile)
	}
	for _, pf := range [][2]string{{"listen.internal_tls.cert_file", t.CertFile}, {"listen.internal_tls.key_file", t.KeyFile}} {
		path, f := pf[0], pf[1]
		if f == "" {
			ps.add(path, "is required (dwk certs writes <member>.pem and <member>-key.pem)")
		} else if _, err := os.Stat(f); err != nil {
			ps.add(path, "cannot read %s: %v", f, err)
		}
	}
}

// checkRoots checks that file can be read and holds at least one PEM
// certificate and no PEM block of another type; path is its JSON path.
func checkRoots(ps *Problems, path, file string) {
	b, err := os.ReadFile(file)
	if err != nil {
		ps.add(path, "cannot read %s: %v", file, err)
		return
	}
	n := 0
	for {
		var block *pem.Block
		block, b = pem.Decode(b)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			ps.add(path, "%s holds a PEM %q block; want only CERTIFICATE blocks", file, block.Type)
			return
		}
		if _, err := x509.ParseCertificate(block.Bytes); err != nil {
			ps.add(path, "%s: certificate %d does not parse: %v", file, n+1, err)
			return
		}
		n++
	}
	if n == 0 {
		ps.add(path, "%s holds no PEM certificate", file)
	}
}
