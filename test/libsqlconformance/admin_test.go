package libsqlconformance

import (
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
)

// envAdminKey is the admin key of an external server.
const envAdminKey = "DWK_TEST_LIBSQL_ADMIN_KEY"

// adminCall sends an admin API request and returns status and body.
func adminCall(t *testing.T, tgt *target, method, path, body, key string) (int, string) {
	t.Helper()
	if tgt.adminURL == "" {
		t.Skipf("no admin API: set %s", envAdminURL)
	}
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, tgt.adminURL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Basic "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}

func adminKey(tgt *target) string {
	if tgt.managed {
		return ""
	}
	return os.Getenv(envAdminKey)
}

func TestAdminAuth(t *testing.T) {
	tgt := startTarget(t, "--admin-auth-key", "s3cret")
	skipUnlessManaged(t, tgt, "its admin key")
	ns := uniqueName("auth")
	if code, body := adminCall(t, tgt, "POST", "/v1/namespaces/"+ns+"/create", "{}", ""); code != http.StatusUnauthorized {
		t.Fatalf("create without key: %d %s, want 401", code, body)
	}
	if code, body := adminCall(t, tgt, "POST", "/v1/namespaces/"+ns+"/create", "{}", "wrong"); code != http.StatusUnauthorized {
		t.Fatalf("create with a wrong key: %d %s, want 401", code, body)
	}
	if code, body := adminCall(t, tgt, "POST", "/v1/namespaces/"+ns+"/create", "{}", "s3cret"); code != http.StatusOK {
		t.Fatalf("create with the key: %d %s, want 200", code, body)
	}
}
