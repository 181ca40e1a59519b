package config

import (
	"crypto/x509"
	"encoding/pem"
	"os"
)

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
