package peerlink

import (
	"crypto/tls"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/fleet/internaltls"
)

const secret = "0123456789abcdef0123456789abcdef"

// pki writes a CA and member certificates for fleet into dir and returns
// their files by member.
func pki(t testing.TB, dir, fleet string, members ...string) map[string]*internaltls.Files {
	t.Helper()
	ca, err := internaltls.NewCA(fleet, internaltls.DefaultValidity)
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(dir, "ca.pem")
	write(t, caFile, ca.Cert)
	write(t, filepath.Join(dir, "ca-key.pem"), ca.Key)
	out := map[string]*internaltls.Files{}
	for _, m := range members {
		p, err := internaltls.IssueMember(ca, fleet, m, []string{"127.0.0.1"}, internaltls.DefaultValidity)
		if err != nil {
			t.Fatal(err)
		}
		f := &internaltls.Files{CA: caFile, Cert: filepath.Join(dir, m+".pem"), Key: filepath.Join(dir, m+"-key.pem")}
		write(t, f.Cert, p.Cert)
		write(t, f.Key, p.Key)
		out[m] = f
	}
	return out
}

func write(t testing.TB, name string, b []byte) {
	t.Helper()
	if err := os.WriteFile(name, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func newLink(t testing.TB, member string, f *internaltls.Files) *Link {
	t.Helper()
	l, err := New(Config{Secret: []byte(secret), Fleet: "f", Member: member, TLS: f})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// serve runs member's internal listener with link l and returns its address.
func serve(t *testing.T, l *Link) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{
		Handler: l.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, "read body: "+err.Error(), http.StatusBadRequest)
				return
			}
			io.WriteString(w, "ok "+string(b))
		})),
	}
	srv.ErrorLog = log.New(io.Discard, "", 0)
	go srv.Serve(l.Listen(ln))
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

func get(t *testing.T, rt http.RoundTripper, addr string) (string, error) {
	t.Helper()
	req, _ := http.NewRequest("POST", "http://"+addr+"/x", strings.NewReader("body"))
	resp, err := rt.RoundTrip(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.Status + " " + string(b), nil
}

func TestMutualTLS(t *testing.T) {
	dir := t.TempDir()
	fs := pki(t, dir, "f", "a", "b")
	otherDir := t.TempDir()
	foreign := pki(t, otherDir, "f", "a") // same names, another CA
	a, b := newLink(t, "a", fs["a"]), newLink(t, "b", fs["b"])
	addrA := serve(t, a)

	t.Run("member to member", func(t *testing.T) {
		got, err := get(t, b.Transport(nil, Peer("a")), addrA)
		if err != nil || got != "200 OK ok body" {
			t.Fatalf("got %q, %v", got, err)
		}
	})
	t.Run("plaintext connection refused", func(t *testing.T) {
		plain := newLink(t, "b", nil)
		got, err := get(t, plain.Transport(nil, nil), addrA)
		if err == nil && (!strings.HasPrefix(got, "400") || !strings.Contains(got, "HTTP request to an HTTPS server")) {
			t.Fatalf("plaintext request to a TLS listener: got %q, want 400 saying it is an HTTPS server", got)
		}
	})
	t.Run("client from another CA refused", func(t *testing.T) {
		intruder := newLink(t, "a", foreign["a"])
		_, err := get(t, intruder.Transport(nil, Peer("a")), addrA)
		if err == nil {
			t.Fatal("a client with another CA's certificate was served")
		}
		// The client also refuses the server: neither CA trusts the other.
		if !errors.Is(err, internaltls.ErrPeer) && !strings.Contains(err.Error(), "certificate") {
			t.Errorf("err = %v, want a certificate refusal", err)
		}
	})
	t.Run("server for another member refused", func(t *testing.T) {
		_, err := get(t, b.Transport(nil, Peer("c")), addrA)
		if !errors.Is(err, internaltls.ErrPeer) || !strings.Contains(err.Error(), `names member "a", expected "c"`) {
			t.Fatalf("err = %v, want a refusal naming both members", err)
		}
	})
	t.Run("unknown member refused", func(t *testing.T) {
		_, err := get(t, b.Transport(nil, func(*http.Request) (string, bool) { return "", false }), addrA)
		if !errors.Is(err, ErrUnknownPeer) {
			t.Fatalf("err = %v, want ErrUnknownPeer", err)
		}
	})
	t.Run("server refuses a client of another fleet", func(t *testing.T) {
		// Same CA, certificate for fleet "g": the chain verifies, the
		// fleet does not.
		caPEM := readCA(t, dir)
		p, err := internaltls.IssueMember(caPEM, "g", "a", nil, internaltls.DefaultValidity)
		if err != nil {
			t.Fatal(err)
		}
		cert, _ := tls.X509KeyPair(p.Cert, p.Key)
		c := &tls.Config{Certificates: []tls.Certificate{cert}, InsecureSkipVerify: true}
		conn, err := tls.Dial("tcp", addrA, c)
		if err == nil {
			_, err = conn.Read(make([]byte, 1)) // TLS 1.3: the refusal arrives after the handshake
			conn.Close()
		}
		if err == nil || !strings.Contains(err.Error(), "certificate") {
			t.Fatalf("err = %v, want a certificate refusal", err)
		}
	})
	t.Run("wrong member certificate at start", func(t *testing.T) {
		_, err := New(Config{Secret: []byte(secret), Fleet: "f", Member: "b", TLS: fs["a"]})
		if err == nil || !strings.Contains(err.Error(), `names member "a", expected "b"`) {
			t.Fatalf("err = %v, want the mix-up named", err)
		}
	})
}

func TestPlaintextStillNeedsTheMAC(t *testing.T) {
	a := newLink(t, "a", nil)
	addr := serve(t, a)
	got, err := get(t, newLink(t, "b", nil).Transport(nil, nil), addr)
	if err != nil || got != "200 OK ok body" {
		t.Fatalf("signed: got %q, %v", got, err)
	}
	got, err = get(t, http.DefaultTransport, addr)
	if err != nil || !strings.HasPrefix(got, "401") {
		t.Fatalf("unsigned: got %q, %v; want 401", got, err)
	}
}

func readCA(t *testing.T, dir string) internaltls.PEM {
	t.Helper()
	c, err1 := os.ReadFile(filepath.Join(dir, "ca.pem"))
	k, err2 := os.ReadFile(filepath.Join(dir, "ca-key.pem"))
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	return internaltls.PEM{Cert: c, Key: k}
}

// TestCARotation follows docs/security.md: every member first trusts a
// bundle of the old and the new CA, then members get certificates of the
// new CA one by one (old and new certificates interoperate), then the old
// CA is dropped from the bundle.
func TestCARotation(t *testing.T) {
	oldDir, newDir := t.TempDir(), t.TempDir()
	olds := pki(t, oldDir, "f", "a", "b")
	news := pki(t, newDir, "f", "a", "b")
	bundle := filepath.Join(t.TempDir(), "bundle.pem")
	oldCA, _ := os.ReadFile(olds["a"].CA)
	newCA, _ := os.ReadFile(news["a"].CA)
	write(t, bundle, append(append([]byte{}, oldCA...), newCA...))
	with := func(f *internaltls.Files, ca string) *internaltls.Files {
		c := *f
		c.CA = ca
		return &c
	}
	call := func(from, to *Link, toName string) error {
		_, err := get(t, from.Transport(nil, Peer(toName)), serve(t, to))
		return err
	}
	// Step 0: a member still trusting only the old CA refuses a new
	// certificate, which is why the bundle goes out first.
	if err := call(newLink(t, "a", olds["a"]), newLink(t, "b", news["b"]), "b"); err == nil {
		t.Fatal("a member trusting only the old CA accepted a certificate of the new one")
	}
	// Step 1: the bundle everywhere; a keeps its old certificate, b has a
	// new one.
	a, b := newLink(t, "a", with(olds["a"], bundle)), newLink(t, "b", with(news["b"], bundle))
	if err := call(a, b, "b"); err != nil {
		t.Errorf("old certificate to new, both trusting the bundle: %v", err)
	}
	if err := call(b, a, "a"); err != nil {
		t.Errorf("new certificate to old, both trusting the bundle: %v", err)
	}
	// Step 2: every certificate re-issued, the old CA dropped.
	a, b = newLink(t, "a", news["a"]), newLink(t, "b", news["b"])
	if err := call(a, b, "b"); err != nil {
		t.Errorf("after the rotation: %v", err)
	}
	if err := call(newLink(t, "a", with(olds["a"], bundle)), b, "b"); err == nil {
		t.Error("after the rotation, a certificate of the old CA was accepted")
	}
}
