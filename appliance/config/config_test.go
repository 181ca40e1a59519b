package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func decodeValidate(t *testing.T, src string) error {
	t.Helper()
	c, err := Decode([]byte(src))
	if err != nil {
		return err
	}
	c.ApplyDefaults()
	return c.Validate(nil)
}

func problemPaths(t *testing.T, err error) []string {
	t.Helper()
	var ps Problems
	if !errors.As(err, &ps) {
		t.Fatalf("error %v is not Problems", err)
	}
	var out []string
	for _, p := range ps {
		out = append(out, p.Path)
	}
	return out
}

func TestDefaultIsValid(t *testing.T) {
	if err := Default().Validate(nil); err != nil {
		t.Fatalf("Default().Validate: %v", err)
	}
}

func TestEmptyObjectIsLocalMode(t *testing.T) {
	c, err := Decode([]byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	c.ApplyDefaults()
	if err := c.Validate(nil); err != nil {
		t.Fatal(err)
	}
	if got, want := c.Storage.Mode, ModeLocal; got != want {
		t.Errorf("mode = %q, want %q", got, want)
	}
}

func TestUnknownFieldsReportedWithPaths(t *testing.T) {
	src := `{
	  "fleet": {"name": "prod", "secrt": "x"},
	  "storage": {"mode": "central", "libsql": {"url": "http://db", "urll": "x"}},
	  "workers": [{"name": "a"}, {"name": "b", "bindings": {"d2": {}}}],
	  "fleet_secret": 1
	}`
	_, err := Decode([]byte(src))
	got := problemPaths(t, err)
	want := []string{"fleet.secrt", "fleet_secret", "storage.libsql.urll", "workers[1].bindings.d2"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("paths = %v, want %v", got, want)
	}
	if !strings.Contains(err.Error(), `fleet.secrt: unknown field (did you mean "secret"?)`) {
		t.Errorf("no suggestion for fleet.secrt in %v", err)
	}
}

func TestTypeErrorHasPath(t *testing.T) {
	_, err := Decode([]byte(`{"storage": {"s3": {"bucket": "b", "path_style": "yes"}}}`))
	if got := problemPaths(t, err); len(got) != 1 || got[0] != "storage.s3.path_style" {
		t.Errorf("paths = %v, want [storage.s3.path_style]", got)
	}
}

func TestSyntaxErrorNamesLine(t *testing.T) {
	_, err := Decode([]byte("{\n\"fleet\": {,}\n}"))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("err = %v, want mention of line 2", err)
	}
}

func TestValidateListsEveryProblem(t *testing.T) {
	src := `{
	  "fleet": {"name": "Prod!"},
	  "storage": {"mode": "central", "libsql": {"url": "ftp://x"}, "s3": {"bucket": "B"}},
	  "workers": [{"name": "", "routes": ["nope"], "crons": ["61 * * * *"],
	               "bindings": {"d1": {"DB": "Bad Name"}, "kv": {"DB": "ok"}},
	               "consumers": [{"queue": "q", "max_batch_size": 500, "dead_letter_queue": "q", "max_concurrency": 251}]}],
	  "affinity": {"rules": [{"namespace": "C", "path": "/x", "header": "h"}]},
	  "drain": {"timeout": "0s"},
	  "log": {"level": "loud"}
	}`
	err := decodeValidate(t, src)
	want := []string{
		"fleet.name", "fleet.secret", "storage.libsql.url", "storage.s3.bucket",
		"workers[0].name", "workers[0].routes[0]", "workers[0].bindings.d1.DB", "workers[0].bindings.kv.DB",
		"workers[0].crons[0]", "workers[0].consumers[0].max_batch_size", "workers[0].consumers[0].dead_letter_queue",
		"workers[0].consumers[0].max_concurrency", "affinity.rules[0]", "affinity.rules[0].path", "log.level",
	}
	got := problemPaths(t, err)
	gotSet := map[string]bool{}
	for _, p := range got {
		gotSet[p] = true
	}
	for _, w := range want {
		if !gotSet[w] {
			t.Errorf("missing problem at %s; got %v", w, got)
		}
	}
}

func TestSecretSources(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s")
	if err := os.WriteFile(file, []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DWK_TEST_SECRET", "from-env")
	tests := []struct {
		json    string
		want    string
		wantErr string
	}{
		{`"literal"`, "literal", ""},
		{`{"env": "DWK_TEST_SECRET"}`, "from-env", ""},
		{`{"file": "` + file + `"}`, "from-file", ""},
		{`{"env": "DWK_TEST_UNSET_VAR"}`, "", "DWK_TEST_UNSET_VAR is not set"},
		{`{"file": "` + filepath.Join(dir, "missing") + `"}`, "", "no such file"},
	}
	for _, tt := range tests {
		var s Secret
		if err := s.UnmarshalJSON([]byte(tt.json)); err != nil {
			t.Fatalf("%s: %v", tt.json, err)
		}
		got, err := s.Resolve()
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: err = %v, want %q", tt.json, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.json, got, err, tt.want)
		}
	}
	if err := decodeValidate(t, `{"fleet": {"secret": {"env": "X", "path": "y"}}}`); err == nil {
		t.Error("secret object with unknown key accepted")
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	c := Default()
	c.Fleet.Secret = &Secret{Env: "DWK_FLEET_SECRET"}
	b, err := Encode(c)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(b)
	if err != nil {
		t.Fatalf("decode of encoded config: %v\n%s", err, b)
	}
	b2, _ := Encode(back)
	if string(b) != string(b2) {
		t.Errorf("round trip changed the config:\n%s\n---\n%s", b, b2)
	}
}

func TestCentralNeedsStores(t *testing.T) {
	err := decodeValidate(t, `{"storage": {"mode": "central"}, "fleet": {"secret": "0123456789abcdef0123456789abcdef"}}`)
	got := strings.Join(problemPaths(t, err), ",")
	if got != "storage.libsql,storage.s3" {
		t.Errorf("paths = %s, want storage.libsql,storage.s3", got)
	}
}

func TestHashIgnoresDefaults(t *testing.T) {
	bare, err := Decode([]byte(`{"fleet": {"name": "prod"}}`))
	if err != nil {
		t.Fatal(err)
	}
	defaulted, _ := Decode([]byte(`{"fleet": {"name": "prod"}}`))
	defaulted.ApplyDefaults()
	if bare.Hash() != defaulted.Hash() {
		t.Error("hash differs between a config and the same config with defaults applied")
	}
	other, _ := Decode([]byte(`{"fleet": {"name": "prod"}, "drain": {"timeout": "5s"}}`))
	if other.Hash() == bare.Hash() {
		t.Error("hash does not change with the config")
	}
}
