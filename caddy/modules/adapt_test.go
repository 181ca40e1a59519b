package modules

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2/caddyconfig"
	// The Caddyfile adapter and the reverse_proxy directive.
	_ "github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/reverseproxy"
)

var update = flag.Bool("update", false, "rewrite the golden JSON files")

// TestCaddyfileAdapt adapts every testdata/*.caddyfile and compares the JSON
// with testdata/<name>.json, as Caddy's caddytest/integration/caddyfile_adapt
// tests do. Run with -update to rewrite the JSON.
func TestCaddyfileAdapt(t *testing.T) {
	files, err := filepath.Glob("testdata/*.caddyfile")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Caddyfiles in testdata (%v)", err)
	}
	adapter := caddyconfig.GetAdapter("caddyfile")
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".caddyfile")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out, warnings, err := adapter.Adapt(in, map[string]any{"filename": f})
			if err != nil {
				t.Fatalf("adapt: %v", err)
			}
			for _, w := range warnings {
				t.Errorf("warning: %s:%d: %s", w.File, w.Line, w.Message)
			}
			var got bytes.Buffer
			if err := json.Indent(&got, out, "", "\t"); err != nil {
				t.Fatal(err)
			}
			got.WriteByte('\n')
			golden := strings.TrimSuffix(f, ".caddyfile") + ".json"
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("adapted JSON differs from %s (run with -update to accept):\n%s", golden, got.String())
			}
		})
	}
}

// TestBadCaddyfile checks that module errors surface through the adapter.
func TestBadCaddyfile(t *testing.T) {
	for _, in := range []string{
		":80\nreverse_proxy {\n\tdynamic dwk {\n\t\tbogus 1\n\t}\n}\n",
		":80\nreverse_proxy {\n\tdynamic dwk\n\tlb_policy dwk {\n\t\tpath /no-name Counter\n\t}\n}\n",
		"{\n\tstorage dwk {\n\t\troot /var/lib/caddy\n\t}\n}\n:80\nrespond ok\n",
	} {
		if _, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(in), nil); err == nil {
			t.Errorf("adapted %q without error", in)
		}
	}
}
