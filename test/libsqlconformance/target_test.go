package libsqlconformance

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// target is the server under test.
type target struct {
	// url is the user API base URL ("http://127.0.0.1:PORT").
	url string
	// adminURL is the admin API base URL; empty when unknown.
	adminURL string
	// token is sent by every client; empty for none.
	token string
	// managed is true when the suite started the server itself.
	managed bool
	// signer signs JWTs for a managed server started with auth.
	signer ed25519.PrivateKey
}

// host returns "127.0.0.1:PORT".
func (t *target) host() string { return hostPort(t.url) }

// nsURL returns the URL addressing namespace ns by Host, with scheme.
func (t *target) nsURL(scheme, ns string) string {
	_, port := splitHostPort(t.host())
	return fmt.Sprintf("%s://%s.localhost:%s", scheme, ns, port)
}

// schemeURL returns the base URL with another scheme (ws).
func (t *target) schemeURL(scheme string) string {
	return scheme + "://" + t.host()
}

func hostOf(raw string) string {
	h, _ := splitHostPort(hostPort(raw))
	return h
}

func hostPort(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Host
}

func splitHostPort(hp string) (string, string) {
	i := strings.LastIndexByte(hp, ':')
	if i < 0 {
		return hp, ""
	}
	return hp[:i], hp[i+1:]
}

// startTarget returns the external server named by DWK_TEST_LIBSQL_URL, or
// starts `dwk libsql` on :0 ports in a temporary directory with extraArgs.
func startTarget(t *testing.T, extraArgs ...string) *target {
	t.Helper()
	if u := os.Getenv(envURL); u != "" {
		return &target{url: strings.TrimSuffix(u, "/"), adminURL: strings.TrimSuffix(os.Getenv(envAdminURL), "/"), token: os.Getenv(envAuthToken)}
	}
	return startDWK(t, extraArgs...)
}

// startAuthTarget starts `dwk libsql` with a fresh Ed25519 key for JWTs.
func startAuthTarget(t *testing.T) *target {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(t.TempDir(), "jwt.pem")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	tgt := startDWK(t, "--auth-jwt-key-file", keyFile)
	tgt.signer = priv
	return tgt
}

// startDWK runs `dwk libsql` until the test ends, then stops it with
// SIGTERM and fails the test on a non-zero exit, a panic or a data race.
func startDWK(t *testing.T, extraArgs ...string) *target {
	t.Helper()
	args := append([]string{"libsql",
		"--http-listen-addr", "127.0.0.1:0",
		"--admin-listen-addr", "127.0.0.1:0",
		"--db-path", filepath.Join(t.TempDir(), "data.sqld"),
	}, extraArgs...)
	cmd := exec.Command(dwkBinary, args...)
	if _, set := os.LookupEnv("GORACE"); !set {
		// A -race binary otherwise sleeps a second at exit.
		cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=10")
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start dwk libsql: %v", err)
	}
	tgt := &target{managed: true}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	deadline := time.After(30 * time.Second)
	for tgt.url == "" || tgt.adminURL == "" {
		select {
		case line, ok := <-lines:
			if !ok {
				cmd.Wait()
				t.Fatalf("dwk libsql exited before serving; stderr:\n%s", stderr.String())
			}
			if u, ok := strings.CutPrefix(line, "dwk libsql: serving Hrana on "); ok {
				tgt.url = strings.Fields(u)[0]
			}
			if u, ok := strings.CutPrefix(line, "dwk libsql: admin API on "); ok {
				tgt.adminURL = strings.TrimSpace(u)
			}
		case <-deadline:
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("dwk libsql did not report its addresses within 30s; stderr:\n%s", stderr.String())
		}
	}
	go func() {
		for range lines { // keep draining stdout
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("dwk libsql exited with %v; stderr:\n%s", err, stderr.String())
			}
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Errorf("dwk libsql did not stop within 20s of SIGTERM; stderr:\n%s", stderr.String())
		}
		if s := stderr.String(); strings.Contains(s, "DATA RACE") || strings.Contains(s, "panic:") {
			t.Errorf("dwk libsql reported a data race or panic:\n%s", s)
		}
	})
	return tgt
}

// lockedBuffer is a bytes.Buffer safe for the process writer and readers.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var _ io.Writer = (*lockedBuffer)(nil)
