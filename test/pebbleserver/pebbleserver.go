// Package pebbleserver gives tests an ACME server: a real Pebble process
// (Let's Encrypt's test CA) on a loopback port, with a TLS certificate of
// the test's own and challenge validation turned off
// (PEBBLE_VA_ALWAYS_VALID=1), so clients need no reachable solver.
//
// Pebble is found in PATH, $GOBIN or $(go env GOPATH)/bin; install it with
//
//	go install github.com/letsencrypt/pebble/v2/cmd/pebble@v2.10.3
//
// (scripts/tools.sh pebble). Without it a test fails under CI and skips
// elsewhere (package needtool).
package pebbleserver

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/test/freeport"
	"github.com/dwk/fleet/test/needtool"
	"github.com/dwk/fleet/test/procs"
)

// Install is the command that installs the Pebble these tests use.
const Install = "go install github.com/letsencrypt/pebble/v2/cmd/pebble@v2.10.3"

// Server is a running Pebble.
type Server struct {
	// DirectoryURL is the ACME directory.
	DirectoryURL string
	// Roots trusts the server's TLS certificate (not the certificates it
	// issues).
	Roots *x509.CertPool
	// RootsFile is that certificate as a PEM file, for ACME clients
	// configured with a file of trusted roots.
	RootsFile string
	// ManagementURL is Pebble's management interface (HTTPS, trusted
	// through Roots).
	ManagementURL string

	proc *procs.Proc
}

// Pebble's log lines for every certificate it issues and every order it
// accepts.
var (
	issuedRE = regexp.MustCompile(`Issued certificate serial \S+ for order`)
	orderRE  = regexp.MustCompile(`Added order "\S+" to the db`)
)

// Start runs Pebble for the test on loopback.
func Start(t testing.TB) *Server {
	t.Helper()
	return StartOn(t, "127.0.0.1")
}

// StartOn is Start with Pebble listening on host, an IP address other
// machines reach (a test machine's bridge, say); its TLS certificate
// names that address.
func StartOn(t testing.TB, host string) *Server {
	t.Helper()
	ip := net.ParseIP(host)
	if ip == nil {
		t.Fatalf("pebbleserver: %q is not an IP address", host)
	}
	bin := binary(t)
	dir := t.TempDir()
	certFile, keyFile, roots := tlsFiles(t, dir, ip)
	var lastErr error
	for range 3 {
		addr, mgmt := freeport.Must(t, host), freeport.Must(t, host)
		cfg := map[string]any{"pebble": map[string]any{
			"listenAddress": addr, "managementListenAddress": mgmt, "certificate": certFile, "privateKey": keyFile,
			"httpPort": 5002, "tlsPort": 5001, "keyAlgorithm": "ecdsa",
			"retryAfter": map[string]int{"authz": 1, "order": 1},
		}}
		b, err := json.Marshal(cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfgFile := filepath.Join(dir, "pebble-config.json")
		if err := os.WriteFile(cfgFile, b, 0o600); err != nil {
			t.Fatal(err)
		}
		p := procs.Start(t, "pebble", bin,
			[]string{"PEBBLE_VA_ALWAYS_VALID=1", "PEBBLE_VA_NOSLEEP=1", "PEBBLE_WFE_NONCEREJECT=0"},
			"-config", cfgFile)
		s := &Server{
			DirectoryURL: "https://" + addr + "/dir", Roots: roots, RootsFile: certFile,
			ManagementURL: "https://" + mgmt, proc: p,
		}
		if lastErr = s.waitReady(10 * time.Second); lastErr == nil {
			return s
		}
		p.Kill()
	}
	t.Fatalf("pebble did not start: %v", lastErr)
	return nil
}

// Issued is how many certificates the server has issued.
func (s *Server) Issued() int {
	return len(issuedRE.FindAllString(s.proc.Output(), -1))
}

// IssuingRoots returns a pool trusting the root Pebble issues
// certificates under (it makes a new one each run), read from its
// management interface.
func (s *Server) IssuingRoots(t testing.TB) *x509.CertPool {
	t.Helper()
	c := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: s.Roots}}}
	defer c.CloseIdleConnections()
	deadline := time.Now().Add(10 * time.Second)
	for {
		pool, err := s.fetchRoots(c)
		if err == nil {
			return pool
		}
		if time.Now().After(deadline) {
			t.Fatalf("pebble issuing root: %v; output:\n%s", err, s.Output())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *Server) fetchRoots(c *http.Client) (*x509.CertPool, error) {
	resp, err := c.Get(s.ManagementURL + "/roots/0")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("/roots/0 answered %s", resp.Status)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("/roots/0 holds no PEM certificate: %.100q", b)
	}
	return pool, nil
}

// Orders is how many orders the server has accepted.
func (s *Server) Orders() int {
	return len(orderRE.FindAllString(s.proc.Output(), -1))
}

// Output is everything Pebble printed so far.
func (s *Server) Output() string { return s.proc.Output() }

// waitReady polls the directory until it answers.
func (s *Server) waitReady(timeout time.Duration) error {
	c := &http.Client{Timeout: time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: s.Roots}}}
	defer c.CloseIdleConnections()
	deadline := time.Now().Add(timeout)
	for {
		resp, err := c.Get(s.DirectoryURL)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			err = fmt.Errorf("directory answered %s", resp.Status)
		}
		if _, exited := s.proc.Wait(0); exited == nil || time.Now().After(deadline) {
			return fmt.Errorf("%w; output:\n%s", err, s.proc.Output())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// binary finds pebble, or ends the test through needtool.
func binary(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("pebble"); err == nil {
		return p
	}
	var dirs []string
	if out, err := exec.Command("go", "env", "GOBIN", "GOPATH").Output(); err == nil {
		lines := strings.SplitN(string(out), "\n", 2)
		if gobin := strings.TrimSpace(lines[0]); gobin != "" {
			dirs = append(dirs, gobin)
		}
		if len(lines) == 2 {
			for _, d := range filepath.SplitList(strings.TrimSpace(lines[1])) {
				dirs = append(dirs, filepath.Join(d, "bin"))
			}
		}
	}
	for _, d := range dirs {
		p := filepath.Join(d, "pebble")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	needtool.Missing(t, "pebble", Install, fmt.Errorf("not in PATH or %s", strings.Join(dirs, ", ")))
	return ""
}

// tlsFiles writes a self-signed certificate for ip and localhost and its
// key into dir and returns their paths and a pool trusting it.
func tlsFiles(t testing.TB, dir string, ip net.IP) (certFile, keyFile string, roots *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "pebble test listener"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:         true, BasicConstraintsValid: true,
		IPAddresses: []net.IP{ip},
		DNSNames:    []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	for _, f := range []struct {
		path, typ string
		der       []byte
	}{{certFile, "CERTIFICATE", der}, {keyFile, "PRIVATE KEY", keyDER}} {
		if err := os.WriteFile(f.path, pem.EncodeToMemory(&pem.Block{Type: f.typ, Bytes: f.der}), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	roots = x509.NewCertPool()
	roots.AddCert(cert)
	return certFile, keyFile, roots
}
