package fleet

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/internaltls"
	"github.com/dwk/fleet/appliance/fleet/peerlink"
	"github.com/dwk/fleet/appliance/fleet/peermux"
	"github.com/dwk/fleet/test/fleettest"
)

// TestSecurityRefusals checks, against a real replica with internal TLS
// (the fleettest default), that its internal listener refuses plaintext,
// a certificate of another CA and an unsigned or wrongly signed request
// (session upgrades for tunnels, and requests over their streams, too),
// that a client expecting another member refuses it, and that its admin
// API (on a non-loopback address, so over TLS) refuses a missing or wrong
// token and serves `dwk status` trusting the fleet CA.
func TestSecurityRefusals(t *testing.T) {
	f := fleettest.Start(t, fleettest.Options{Replicas: 1, Edit: func(_ int, c *config.Config) {
		c.Listen.Admin = "0.0.0.0:0"
	}})
	r := f.Replicas[0]
	pki := filepath.Join(filepath.Dir(r.Config), "pki")
	url := "http://" + r.Internal + "/counter/x"

	t.Run("plaintext connection", func(t *testing.T) {
		code, _, err := get(url, nil)
		if code != http.StatusBadRequest || err == nil || !strings.Contains(err.Error(), "HTTP request to an HTTPS server") {
			t.Fatalf("got %d, %v; want 400 saying it is an HTTPS server", code, err)
		}
	})
	t.Run("certificate of another CA", func(t *testing.T) {
		dir := t.TempDir()
		if code, out := f.Run("certs", "--fleet", f.Name, "--dir", dir, "--member", "tester"); code != 0 {
			t.Fatalf("dwk certs: %d\n%s", code, out)
		}
		// The intruder skips checking the server, so only the listener's
		// check of its client certificate can refuse it.
		cert, err := tls.LoadX509KeyPair(filepath.Join(dir, "tester.pem"), filepath.Join(dir, "tester-key.pem"))
		if err != nil {
			t.Fatal(err)
		}
		conn, err := tls.Dial("tcp", r.Internal, &tls.Config{Certificates: []tls.Certificate{cert}, InsecureSkipVerify: true})
		if err == nil {
			conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			_, err = conn.Read(make([]byte, 1)) // TLS 1.3: the server's verdict follows the handshake
			conn.Close()
		}
		if err == nil || !strings.Contains(err.Error(), "bad certificate") {
			t.Fatalf("err = %v, want the handshake refused (bad certificate)", err)
		}
	})
	t.Run("server certificate of another member", func(t *testing.T) {
		link, err := peerlink.New(peerlink.Config{Secret: []byte(f.Secret), Fleet: f.Name, Member: "tester", TLS: &internaltls.Files{
			CA: filepath.Join(pki, "ca.pem"), Cert: filepath.Join(pki, "tester.pem"), Key: filepath.Join(pki, "tester-key.pem"),
		}})
		if err != nil {
			t.Fatal(err)
		}
		c := &http.Client{Timeout: 30 * time.Second, Transport: link.Transport(nil, peerlink.Peer("r7"))}
		_, err = c.Get(url)
		if !errors.Is(err, internaltls.ErrPeer) || !strings.Contains(err.Error(), `names member "r0", expected "r7"`) {
			t.Fatalf("err = %v, want a refusal naming both members", err)
		}
	})
	t.Run("request signed with another secret", func(t *testing.T) {
		link, err := peerlink.New(peerlink.Config{Secret: []byte(strings.Repeat("x", 64)), Fleet: f.Name, Member: "tester", TLS: &internaltls.Files{
			CA: filepath.Join(pki, "ca.pem"), Cert: filepath.Join(pki, "tester.pem"), Key: filepath.Join(pki, "tester-key.pem"),
		}})
		if err != nil {
			t.Fatal(err)
		}
		code, _, err := sendVia(&http.Client{Timeout: 30 * time.Second, Transport: link.Transport(nil, peerlink.Peer("r0"))}, mustRequest(t, "GET", url), nil)
		if code != http.StatusUnauthorized || !strings.Contains(err.Error(), "bad MAC") {
			t.Fatalf("got %d, %v; want 401 bad MAC", code, err)
		}
	})
	t.Run("sessions for tunnels", func(t *testing.T) {
		links := map[string]*peerlink.Link{}
		for name, secret := range map[string]string{"ours": f.Secret, "other": strings.Repeat("x", 64)} {
			l, err := peerlink.New(peerlink.Config{Secret: []byte(secret), Fleet: f.Name, Member: "tester", TLS: &internaltls.Files{
				CA: filepath.Join(pki, "ca.pem"), Cert: filepath.Join(pki, "tester.pem"), Key: filepath.Join(pki, "tester-key.pem"),
			}})
			if err != nil {
				t.Fatal(err)
			}
			links[name] = l
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		other := links["other"].Streams()
		defer other.Close()
		if _, err := other.Open(ctx, r.Member, r.Internal); !errors.Is(err, peermux.ErrRefused) || !strings.Contains(err.Error(), "401") {
			t.Fatalf("session upgrade signed with another secret: %v, want refused with 401", err)
		}
		ours := links["ours"].Streams()
		defer ours.Close()
		st, err := ours.Open(ctx, r.Member, r.Internal)
		if err != nil {
			t.Fatalf("session upgrade over mTLS and signed: %v", err)
		}
		defer st.Close()
		st.SetDeadline(time.Now().Add(10 * time.Second))
		// A stream is a connection to the internal listener: unsigned
		// requests over it are refused like any other.
		if err := mustRequest(t, "GET", url).Write(st); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(st), nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("unsigned request over a stream: %s, want 401", resp.Status)
		}
	})
	t.Run("request over mTLS and signed", func(t *testing.T) {
		code, _, err := sendVia(f.InternalClient(), mustRequest(t, "GET", url), nil)
		if code == http.StatusUnauthorized || code == http.StatusBadRequest || code >= 500 {
			t.Fatalf("got %d, %v; want the worker's answer", code, err)
		}
	})

	if !strings.HasPrefix(r.Admin, "https://") {
		t.Fatalf("admin API on %s is not TLS", r.Admin)
	}
	caFile := filepath.Join(pki, "ca.pem")
	adminClient := func(t *testing.T) *http.Client {
		c, err := internaltls.AdminClientConfig(caFile, f.Name)
		if err != nil {
			t.Fatal(err)
		}
		return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: c}}
	}
	for _, tc := range []struct{ name, header string }{
		{"admin API without a token", ""},
		{"admin API with a wrong token", "Bearer wrong"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := mustRequest(t, "GET", r.Admin+"/admin/status")
			if tc.header != "" {
				req.Header.Set("Authorization", tc.header)
			}
			resp, err := adminClient(t).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(b), "missing or wrong admin token") {
				t.Fatalf("got %s %s; want 401 naming the token", resp.Status, b)
			}
		})
	}
	t.Run("dwk status trusts the fleet CA", func(t *testing.T) {
		if code, out := f.Run("status", "--admin", r.Admin); code == 0 || !strings.Contains(out, "certificate") {
			t.Errorf("without --ca-file: exit %d, want a certificate error\n%s", code, out)
		}
		code, out := f.Run("status", "--admin", r.Admin, "--ca-file", caFile)
		if code != 0 || !strings.Contains(out, "r0") {
			t.Errorf("with --ca-file: exit %d\n%s", code, out)
		}
	})
	if b, err := os.ReadFile(caFile); err != nil || len(b) == 0 {
		t.Fatalf("fleet CA %s: %v", caFile, err)
	}
}

func mustRequest(t *testing.T, method, url string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// TestPlaintextInternalWarnsAndStillSigns: with internal TLS off and the
// internal listener beyond loopback, dwk serve warns, and the listener
// still refuses unsigned requests and serves signed ones.
func TestPlaintextInternalWarnsAndStillSigns(t *testing.T) {
	f := fleettest.Start(t, fleettest.Options{Replicas: 1, PlaintextInternal: true, Edit: func(_ int, c *config.Config) {
		_, port, _ := strings.Cut(c.Listen.Internal, ":")
		c.Listen.Advertise = c.Listen.Internal
		c.Listen.Internal = "0.0.0.0:" + port
	}})
	r := f.Replicas[0]
	if out := r.Proc.Output(); !strings.Contains(out, "the internal listener is not on loopback and speaks plain HTTP") {
		t.Errorf("no warning about the plaintext internal listener in:\n%s", out)
	}
	url := "http://" + r.Internal + "/counter/x"
	if code, _, err := get(url, nil); code != http.StatusUnauthorized || !strings.Contains(err.Error(), "missing signature") {
		t.Errorf("unsigned: got %d, %v; want 401 missing signature", code, err)
	}
	if code, _, err := sendVia(f.InternalClient(), mustRequest(t, "GET", url), nil); code == http.StatusUnauthorized || code >= 500 {
		t.Errorf("signed: got %d, %v", code, err)
	}
}

// TestFleetReportReachesPeersOverTLS runs two replicas whose admin APIs
// listen beyond loopback, so over TLS: one replica's fleet report (what
// the fleet page shows) reaches the other's admin API, trusting the fleet
// CA, and reads its status.
func TestFleetReportReachesPeersOverTLS(t *testing.T) {
	f := fleettest.Start(t, fleettest.Options{Replicas: 2, Edit: func(_ int, c *config.Config) {
		c.Listen.Admin = "0.0.0.0:0"
	}})
	r := f.Replicas[0]
	tc, err := internaltls.AdminClientConfig(filepath.Join(filepath.Dir(r.Config), "pki", "ca.pem"), f.Name)
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: tc}}
	type report struct {
		Members []struct {
			ID, Admin, Error string
			Status           *struct{ State string }
		}
	}
	var rep report
	// The member view refreshes every half second: wait until it lists both.
	for deadline := time.Now().Add(10 * time.Second); ; {
		req := mustRequest(t, "GET", r.Admin+"/admin/fleet")
		req.Header.Set("Authorization", "Bearer "+fleettest.AdminToken)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		rep = report{}
		err = json.NewDecoder(resp.Body).Decode(&rep)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /admin/fleet: %d, %v", resp.StatusCode, err)
		}
		if len(rep.Members) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d members in the report after 10s, want 2", len(rep.Members))
		}
		time.Sleep(200 * time.Millisecond)
	}
	for _, m := range rep.Members {
		if m.Error != "" || m.Status == nil {
			t.Errorf("member %s (admin %s): error %q, status %v", m.ID, m.Admin, m.Error, m.Status)
		}
		if m.ID != r.Member && !strings.HasPrefix(m.Admin, "https://") {
			t.Errorf("peer %s's admin API is %s, want https", m.ID, m.Admin)
		}
	}
}
