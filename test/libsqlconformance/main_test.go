package libsqlconformance

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Environment variables that steer the suite.
const (
	// envURL aims the suite at an external server (for example sqld
	// started with --enable-namespaces); envAdminURL and envAuthToken go
	// with it.
	envURL       = "DWK_TEST_LIBSQL_URL"
	envAdminURL  = "DWK_TEST_LIBSQL_ADMIN_URL"
	envAuthToken = "DWK_TEST_LIBSQL_AUTH_TOKEN"
	// envBinary (or the Makefile's envDWKBin) names a prebuilt dwk binary
	// instead of building one.
	envBinary = "DWK_TEST_DWK_BINARY"
	envDWKBin = "DWK_BIN"
	// envRace builds the binary with -race.
	envRace = "DWK_TEST_RACE"
	// envSkipNode skips the @libsql/client cases.
	envSkipNode = "DWK_SKIP_NODE"
)

// dwkBinary is the binary under test, built by TestMain.
var dwkBinary string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	useLocalhostSubdomains()
	if os.Getenv(envURL) == "" {
		bin, cleanup, err := buildDWK()
		if err != nil {
			fmt.Fprintln(os.Stderr, "libsqlconformance:", err)
			return 1
		}
		defer cleanup()
		dwkBinary = bin
	}
	return m.Run()
}

// buildDWK builds ./cmd/dwk into a temporary directory, or returns the
// binary named by DWK_TEST_DWK_BINARY or DWK_BIN.
func buildDWK() (string, func(), error) {
	for _, name := range []string{envBinary, envDWKBin} {
		if bin := os.Getenv(name); bin != "" {
			abs, err := filepath.Abs(bin)
			if err == nil {
				_, err = os.Stat(abs)
			}
			if err != nil {
				return "", nil, fmt.Errorf("%s=%s: %w", name, bin, err)
			}
			return abs, func() {}, nil
		}
	}
	dir, err := os.MkdirTemp("", "dwk-libsqlconformance-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	bin := filepath.Join(dir, "dwk")
	args := []string{"build", "-o", bin}
	if os.Getenv(envRace) != "" {
		args = append(args, "-race")
	}
	args = append(args, "./cmd/dwk")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = moduleRoot()
	if out, err := cmd.CombinedOutput(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("go build ./cmd/dwk: %v\n%s", err, out)
	}
	return bin, cleanup, nil
}

// moduleRoot is the repository root, two levels above this package.
func moduleRoot() string {
	wd, _ := os.Getwd()
	return filepath.Clean(filepath.Join(wd, "..", ".."))
}

// useLocalhostSubdomains makes "<anything>.localhost" resolve to the
// loopback address in this test process, as RFC 6761 says it should and
// as browsers and systemd-resolved do, but as Go's resolver does not. Both
// libsql-client-go transports use http.DefaultTransport, so namespaces can
// be addressed by Host ("ns1.localhost:PORT") like on a real deployment.
func useLocalhostSubdomains() {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return
	}
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err == nil && strings.HasSuffix(host, ".localhost") {
			addr = net.JoinHostPort(localhostTarget(), port)
		}
		return dialer.DialContext(ctx, network, addr)
	}
}

// localhostTarget is where "*.localhost" names connect: the loopback
// address, or the host of DWK_TEST_LIBSQL_URL when that is an IP.
func localhostTarget() string {
	if u := os.Getenv(envURL); u != "" {
		if h := hostOf(u); net.ParseIP(h) != nil {
			return h
		}
	}
	return "127.0.0.1"
}

func skipUnlessManaged(t *testing.T, tgt *target, why string) {
	t.Helper()
	if !tgt.managed {
		t.Skipf("%s is set: this case needs control of the server (%s)", envURL, why)
	}
}
