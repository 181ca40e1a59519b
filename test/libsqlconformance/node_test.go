package libsqlconformance

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/dwk/fleet/test/needtool"
)

// TestNodeClient runs node/conformance.test.mjs (the official
// @libsql/client over http and ws) against the target. It needs node and
// node/node_modules (npm ci --prefix test/libsqlconformance/node); without
// node_modules it fails unless DWK_SKIP_NODE=1. Without node it skips, or
// fails under CI (see test/needtool).
func TestNodeClient(t *testing.T) {
	if os.Getenv(envSkipNode) == "1" {
		t.Skipf("%s=1", envSkipNode)
	}
	node := needtool.LookPath(t, "node", "Node.js 20 or newer: apt-get install -y nodejs npm")
	dir := filepath.Join(moduleRoot(), "test", "libsqlconformance", "node")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@libsql", "client")); err != nil {
		t.Fatalf("@libsql/client is not installed: run `npm ci --prefix test/libsqlconformance/node` (or set %s=1)", envSkipNode)
	}

	tgt := startTarget(t)
	env := append(os.Environ(),
		"LIBSQL_URL="+tgt.url,
		"LIBSQL_AUTH_TOKEN="+tgt.token,
		"LIBSQL_ADMIN_URL="+tgt.adminURL,
		"LIBSQL_ADMIN_KEY="+adminKey(tgt),
	)
	if tgt.managed {
		auth := startAuthTarget(t)
		hour := time.Now().Add(time.Hour).Unix()
		env = append(env,
			"LIBSQL_JWT_URL="+auth.url,
			"LIBSQL_JWT_RW="+token(t, auth.signer, jwt.MapClaims{"a": "rw", "exp": hour}),
			"LIBSQL_JWT_RO="+token(t, auth.signer, jwt.MapClaims{"a": "ro", "exp": hour}),
			"LIBSQL_JWT_EXPIRED="+token(t, auth.signer, jwt.MapClaims{"exp": time.Now().Add(-time.Hour).Unix()}),
		)
	}
	if resp, err := http.Get(tgt.url + "/v2"); err != nil {
		t.Fatalf("target not reachable: %v", err)
	} else {
		resp.Body.Close()
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "--test", "--test-reporter=spec", "conformance.test.mjs")
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node conformance cases failed (%v):\n%s", err, out)
	}
	t.Logf("node conformance cases:\n%s", out)
}
