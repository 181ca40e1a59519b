package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/config"
)

func TestReadPiped(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"tok\n", "tok"},
		{"tok \t\r\n\n", "tok"},
		{"  lead and inner  space\n", "  lead and inner  space"},
		{"\n", ""},
	} {
		got, err := readPiped(strings.NewReader(tc.in))
		if err != nil || string(got) != tc.want {
			t.Errorf("readPiped(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestSecretList(t *testing.T) {
	got, err := json.Marshal(secretList([]string{"B", "A"}, map[string]bool{"A": true, "C": true}))
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"name":"A","type":"secret_text","source":"stored"},{"name":"B","type":"secret_text","source":"stored"},{"name":"C","type":"secret_text","source":"config"}]`
	if string(got) != want {
		t.Errorf("list = %s\nwant   %s", got, want)
	}
	if empty, _ := json.Marshal(secretList(nil, nil)); string(empty) != "[]" {
		t.Errorf("an empty list = %s, want []", empty)
	}
}

func TestSecretTargetPick(t *testing.T) {
	one := &config.Config{Workers: []config.Worker{{Name: "api"}}}
	two := &config.Config{Workers: []config.Worker{{Name: "api"}, {Name: "web"}}}
	for _, tc := range []struct {
		cfg           *config.Config
		name, want    string
		errorContains string
	}{
		{one, "", "api", ""},
		{one, "api", "api", ""},
		{two, "web", "web", ""},
		{two, "", "", "pass --name WORKER"},
		{two, "nope", "", `no such worker; its workers are ["api" "web"]`},
	} {
		st := &secretTarget{path: "dwk.json", cfg: tc.cfg}
		err := st.pick(tc.name)
		if tc.errorContains != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errorContains) {
				t.Errorf("pick(%q) = %v; want an error with %q", tc.name, err, tc.errorContains)
			}
			continue
		}
		if err != nil || st.worker != tc.want {
			t.Errorf("pick(%q) = %q, %v; want %q", tc.name, st.worker, err, tc.want)
		}
	}
}

func TestSecretTargetClash(t *testing.T) {
	st := &secretTarget{worker: "api", wc: config.Worker{Name: "api", Bindings: config.Bindings{
		Vars: map[string]string{"MODE": "prod"}, KV: map[string]string{"CACHE": "cache"},
		Secrets: map[string]*config.Secret{"API_TOKEN": config.Literal("x")},
	}}}
	for _, tc := range []struct {
		name string
		ok   bool
	}{{"API_TOKEN", true}, {"NEW", true}, {"MODE", false}, {"CACHE", false}} {
		if err := st.clash(tc.name); (err == nil) != tc.ok {
			t.Errorf("clash(%q) = %v; want ok %v", tc.name, err, tc.ok)
		}
	}
	if got := st.configured(); len(got) != 1 || !got["API_TOKEN"] {
		t.Errorf("configured = %v; want API_TOKEN", got)
	}
}

func TestSecretTargetClashWithAProjectJSONVar(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"proj/wrangler.jsonc": `{"name": "api", "main": "src/index.js", "compatibility_date": "2025-09-15",
			"vars": {"MODE": "prod", "LIMITS": {"max": 3}}}`,
		"proj/src/index.js": `export default { fetch() { return new Response("ok") } }`,
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st := &secretTarget{path: filepath.Join(dir, "dwk.json"), worker: "api", wc: config.Worker{Name: "api", Project: "proj"}}
	if err := st.clash("LIMITS"); err == nil || !strings.Contains(err.Error(), "already a vars binding") {
		t.Errorf("clash(LIMITS), a JSON var of the project = %v; want a refusal", err)
	}
	if err := st.clash("NEW"); err != nil {
		t.Errorf("clash(NEW) = %v; want none", err)
	}
}
