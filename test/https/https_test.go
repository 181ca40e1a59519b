package https

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/caddy/dwkstorage"
	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/freeport"
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

// TestDeadLockHolderDoesNotBlockIssuance kills the replica that holds
// the certificate lock while its ACME requests are held up, then starts
// the others: once the dead holder's lock expires one of them obtains the
// certificate, and Pebble issues exactly one.
func TestDeadLockHolderDoesNotBlockIssuance(t *testing.T) {
	acme := pebbleserver.Start(t)
	gate := newGate(t, strings.TrimSuffix(strings.TrimPrefix(acme.DirectoryURL, "https://"), "/dir"))
	f, doors := newFleet(t, acme, "https://"+gate.addr+"/dir")
	f.Provision()
	holder := f.Replicas[0]
	holder.Start()
	// The replica talks to the CA only while it holds the lock
	// (certmagic takes it before its first request), so its first
	// connection shows it holds it.
	wait.Within(t, obtainTimeout, holder.Member+" asking the CA for a certificate", func() bool { return gate.connections() > 0 })
	holder.Kill()
	killed := time.Now()
	if n := acme.Orders(); n != 0 {
		t.Fatalf("Pebble accepted %d orders through a closed gate", n)
	}
	gate.open()
	for _, r := range f.Replicas[1:] {
		r.Start()
	}
	roots := acme.IssuingRoots(t)
	serial := waitServedWithin(t, doors[1], roots, dwkstorage.DefaultLockTTL+obtainTimeout)
	if s := waitServed(t, doors[2], roots); s != serial {
		t.Errorf("replicas 1 and 2 serve certificates %s and %s", serial, s)
	}
	took := time.Since(killed)
	t.Logf("certificate served %s after the lock holder died", took.Round(time.Millisecond))
	// The survivors waited for the dead holder's lock rather than
	// ignoring it: it was renewed at most a third of its TTL before the
	// kill, so it outlived the kill by at least two thirds of the TTL.
	if floor := 2 * dwkstorage.DefaultLockTTL / 3; took < floor {
		t.Errorf("certificate served %s after the holder died, before its lock could expire (%s)", took, floor)
	}
	if n := acme.Issued(); n != 1 {
		t.Errorf("Pebble issued %d certificates, want 1; its log:\n%s", n, acme.Output())
	}
	for i, addr := range doors[1:] {
		checkRequests(t, addr, roots, fmt.Sprintf("https-survivor-%d", i+1))
	}
}

// startFleet starts a fleet whose replicas serve domain over HTTPS with
// certificates from acme, and returns it with each replica's HTTPS
// address.
func startFleet(t *testing.T, acme *pebbleserver.Server) (*fleettest.Fleet, []string) {
	t.Helper()
	f, doors := newFleet(t, acme, acme.DirectoryURL)
	f.Provision()
	for _, r := range f.Replicas {
		r.Start()
	}
	return f, doors
}

// newFleet writes the configs of a fleet whose replicas serve domain over
// HTTPS with certificates from the ACME directory directory (acme's, or a
// proxy of it), and returns it with each replica's HTTPS address. It
// neither provisions the stores nor starts a replica.
func newFleet(t *testing.T, acme *pebbleserver.Server, directory string) (*fleettest.Fleet, []string) {
	t.Helper()
	var doors []string
	f := fleettest.New(t, fleettest.Options{Edit: func(_ int, c *config.Config) {
		c.Listen.Public = freeport.Must(t, "127.0.0.1")
		c.Listen.TLS = &config.TLS{
			Domains: []string{domain}, Email: "ops@" + domain,
			ACMECA: directory, ACMECARoot: acme.RootsFile,
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
	return waitServedWithin(t, addr, roots, obtainTimeout)
}

// waitServedWithin is waitServed with a deadline of timeout.
func waitServedWithin(t *testing.T, addr string, roots *x509.CertPool, timeout time.Duration) string {
	t.Helper()
	var serial string
	var last error
	deadline := time.Now().Add(timeout)
	for {
		serial, last = handshake(addr, roots)
		if last == nil {
			return serial
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no verified TLS handshake for %s within %s: %v", addr, domain, timeout, last)
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
