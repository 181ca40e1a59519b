package https

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/pebbleserver"
	"github.com/dwk/fleet/test/wait"
)

// domain is the fleet's DNS name. Pebble validates every challenge
// without looking it up (PEBBLE_VA_ALWAYS_VALID), and the client dials
// each replica by address with this server name.
const domain = "fleet.test"

// obtainTimeout bounds how long the fleet may take to obtain or load its
// certificate after its replicas start.
const obtainTimeout = 45 * time.Second

// TestFleetSharesOneCertificate runs three replicas behind one domain
// with the default (shared) certificate storage and Pebble as their ACME
// CA: Pebble issues one certificate, every replica serves it and proxies
// through its front door, and after every replica restarts they serve
// the same certificate without a new order.
func TestFleetSharesOneCertificate(t *testing.T) {
	acme := pebbleserver.Start(t)
	f, doors := startFleet(t, acme)
	roots := acme.IssuingRoots(t)

	serials := make([]string, len(doors))
	for i, addr := range doors {
		serials[i] = waitServed(t, addr, roots)
	}
	for i, s := range serials {
		if s != serials[0] {
			t.Errorf("replica %d serves certificate %s, replica 0 %s", i, s, serials[0])
		}
	}
	if n := acme.Issued(); n != 1 {
		t.Fatalf("Pebble issued %d certificates for %d replicas, want 1; its log:\n%s", n, len(doors), acme.Output())
	}
	orders := acme.Orders()
	for i, addr := range doors {
		checkRequests(t, addr, roots, fmt.Sprintf("https-%d", i))
	}

	for _, r := range f.Replicas {
		r.Stop()
	}
	for _, r := range f.Replicas {
		r.Start()
	}
	for i, addr := range doors {
		if s := waitServed(t, addr, roots); s != serials[0] {
			t.Errorf("after the restart replica %d serves certificate %s, before %s", i, s, serials[0])
		}
		checkRequests(t, addr, roots, fmt.Sprintf("https-restart-%d", i))
	}
	if n, o := acme.Issued(), acme.Orders(); n != 1 || o != orders {
		t.Errorf("after the restart Pebble has issued %d certificates and accepted %d orders, want 1 and %d", n, o, orders)
	}
}

// startFleet starts a fleet whose replicas serve domain over HTTPS with
// certificates from acme, and returns it with each replica's HTTPS
// address.
func startFleet(t *testing.T, acme *pebbleserver.Server) (*fleettest.Fleet, []string) {
	t.Helper()
	var doors []string
	f := fleettest.Start(t, fleettest.Options{Edit: func(_ int, c *config.Config) {
		c.Listen.Public = freeAddr(t)
		c.Listen.TLS = &config.TLS{
			Domains: []string{domain}, Email: "ops@" + domain,
			ACMECA: acme.DirectoryURL, ACMECARoot: acme.RootsFile,
		}
		doors = append(doors, c.Listen.Public)
	}})
	return f, doors
}

// waitServed waits until the replica at addr completes a TLS handshake
// for domain that verifies against roots, and returns the serial of the
// certificate it served.
func waitServed(t *testing.T, addr string, roots *x509.CertPool) string {
	t.Helper()
	var serial string
	var last error
	deadline := time.Now().Add(obtainTimeout)
	for {
		serial, last = handshake(addr, roots)
		if last == nil {
			return serial
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no verified TLS handshake for %s within %s: %v", addr, domain, obtainTimeout, last)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// handshake dials addr, verifies the certificate it serves for domain
// against roots, and returns its serial.
func handshake(addr string, roots *x509.CertPool) (string, error) {
	d := &net.Dialer{Timeout: 2 * time.Second}
	conn, err := tls.DialWithDialer(d, "tcp", addr, &tls.Config{ServerName: domain, RootCAs: roots})
	if err != nil {
		return "", err
	}
	defer conn.Close()
	return conn.ConnectionState().PeerCertificates[0].SerialNumber.String(), nil
}

// checkRequests sends requests through the front door at addr over HTTPS:
// /readyz (answered by the replica itself) and an increment of the
// counter object name (proxied to the replica that holds it).
func checkRequests(t *testing.T, addr string, roots *x509.CertPool, name string) {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{ServerName: domain, RootCAs: roots},
	}}
	defer c.CloseIdleConnections()
	send := func(method, path string) (int, string, string) {
		req, err := http.NewRequest(method, "https://"+addr+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = domain
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("%s %s via %s: %v", method, path, addr, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("X-Dwk-Member"), string(b)
	}
	// A replica that just started may still be joining; its /readyz
	// turns 200 once it serves.
	wait.For(t, addr+" ready over HTTPS", func() bool {
		code, _, _ := send(http.MethodGet, "/readyz")
		return code == http.StatusOK
	})
	code, member, body := send(http.MethodPost, "/counter/"+name+"/increment")
	var counter struct{ Value int64 }
	if code != http.StatusOK || member == "" || json.Unmarshal([]byte(body), &counter) != nil || counter.Value != 1 {
		t.Errorf("POST /counter/%s/increment via %s: %d from %q: %q; want 200 with value 1", name, addr, code, member, body)
	}
}

// freeAddr returns a loopback address with a port that was free a moment
// ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
