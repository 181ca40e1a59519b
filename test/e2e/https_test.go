package e2e

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http"
	"testing"
	"time"
)

// httpsDomain is the domain fleets with tls serve in these tests. Pebble
// validates every challenge without looking it up, and the clients dial
// each replica by address with this server name.
const httpsDomain = "fleet.test"

// httpsClient sends every request to addr, naming httpsDomain, and
// trusts roots only.
func httpsClient(addr string, roots *x509.CertPool) *http.Client {
	d := net.Dialer{Timeout: 5 * time.Second}
	return &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{
		DialContext:     func(ctx context.Context, _, _ string) (net.Conn, error) { return d.DialContext(ctx, "tcp", addr) },
		TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: httpsDomain},
	}}
}

// waitHTTPS waits, up to 60 s, until the front door at addr answers
// /readyz for httpsDomain over HTTPS with a certificate c trusts.
func waitHTTPS(t *testing.T, c *http.Client, addr string) {
	t.Helper()
	start := time.Now()
	deadline := start.Add(60 * time.Second)
	for {
		resp, err := c.Get("https://" + httpsDomain + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				t.Logf("%s serves %s over HTTPS %v after the apply", addr, httpsDomain, time.Since(start).Round(time.Millisecond))
				return
			}
			err = &statusError{resp.Status}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s does not serve %s over HTTPS 60 s after the apply: %v", addr, httpsDomain, err)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

type statusError struct{ status string }

func (e *statusError) Error() string { return "answered " + e.status }

// checkRedirect checks that plain HTTP on port 80 of addr's host
// redirects a request for httpsDomain to the same URL over HTTPS.
func checkRedirect(t *testing.T, addr string) {
	t.Helper()
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, "http://"+net.JoinHostPort(host, "80")+"/counter/x", nil)
	req.Host = httpsDomain
	c := http.Client{Timeout: 5 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("plain HTTP to %s port 80: %v", host, err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode/100 != 3 || loc != "https://"+httpsDomain+"/counter/x" {
		t.Fatalf("plain HTTP to %s port 80 answered %s, Location %q; want a redirect to https://%s/counter/x", host, resp.Status, loc, httpsDomain)
	}
}
