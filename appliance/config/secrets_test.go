package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSecretBindings(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "key")
	if err := os.WriteFile(file, []byte("hunter2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DWK_TEST_API_KEY", "s3cr3t-value")
	ok := `{"workers": [{"name": "w", "bindings": {"secrets": {
		"API_KEY": {"env": "DWK_TEST_API_KEY"}, "SIGNING": {"file": "` + file + `"}}}}]}`
	if err := decodeValidate(t, ok); err != nil {
		t.Fatalf("valid secret bindings: %v", err)
	}
	bad := `{"workers": [{"name": "w", "bindings": {"vars": {"DUP": "x"}, "secrets": {
		"MISSING": {"env": "DWK_TEST_UNSET_SECRET"}, "NOFILE": {"file": "` + filepath.Join(dir, "none") + `"},
		"EMPTY": "", "DUP": {"env": "DWK_TEST_API_KEY"}, "bad name": {"env": "DWK_TEST_API_KEY"}}}}]}`
	err := decodeValidate(t, bad)
	got := strings.Join(problemPaths(t, err), ",")
	for _, want := range []string{
		"workers[0].bindings.secrets.MISSING", "workers[0].bindings.secrets.NOFILE", "workers[0].bindings.secrets.EMPTY",
		"workers[0].bindings.secrets.DUP", "workers[0].bindings.secrets.bad name",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no problem at %s; got %s", want, got)
		}
	}
	if strings.Contains(err.Error(), "s3cr3t-value") {
		t.Errorf("a problem shows a secret's value: %v", err)
	}
}
