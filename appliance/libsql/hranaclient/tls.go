package hranaclient

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"os"
)

// TrustCA makes t trust only the PEM CA certificates in file for https://
// and wss:// servers (a libSQL server with a private CA). It is the one
// place every libSQL client (Hrana, the admin API, the front door's
// coordination reads) gets its CA from.
func TrustCA(t *http.Transport, file string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("hranaclient: read the libSQL CA: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		return fmt.Errorf("hranaclient: %s holds no PEM certificate", file)
	}
	c := &tls.Config{MinVersion: tls.VersionTLS12}
	if t.TLSClientConfig != nil {
		c = t.TLSClientConfig.Clone()
	}
	c.RootCAs = pool
	t.TLSClientConfig = c
	return nil
}

// WithCA returns hc (a default client when nil) trusting the CA in file,
// leaving hc itself untouched. Its transport must be an *http.Transport.
func WithCA(hc *http.Client, file string) (*http.Client, error) {
	if hc == nil {
		hc = defaultHTTPClient()
	}
	var t *http.Transport
	switch b := hc.Transport.(type) {
	case nil:
		t = http.DefaultTransport.(*http.Transport).Clone()
	case *http.Transport:
		t = b.Clone()
	default:
		return nil, errors.New("hranaclient: a CA file needs an *http.Transport")
	}
	if err := TrustCA(t, file); err != nil {
		return nil, err
	}
	c := *hc
	c.Transport = t
	return &c, nil
}
