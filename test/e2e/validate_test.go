package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
)

// configDirs are the Terraform configurations a user runs or calls: every
// module and every example except the per-resource snippets tfplugindocs
// renders (examples/resources, data-sources, functions, provider) and the
// Prometheus scrape config (examples/prometheus, checked by test/dashboard).
func configDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, parent := range []string{"modules", "examples"} {
		entries, err := os.ReadDir(filepath.Join(root, parent))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			switch e.Name() {
			case "resources", "data-sources", "functions", "provider", "prometheus":
				continue
			}
			if e.IsDir() {
				dirs = append(dirs, parent+"/"+e.Name())
			}
		}
	}
	for _, want := range []string{"modules/fleet", "modules/staging", "modules/workers-app", "examples/local", "examples/workers-app", "examples/staging", "examples/ssh-fleet", "examples/vm-fleet", "examples/custom-worker"} {
		if !slices.Contains(dirs, want) {
			t.Errorf("%s is missing", want)
		}
	}
	return dirs
}

// TestFmtAndValidate runs terraform fmt -check and terraform validate on
// every module and example (validate after an init from the provider
// mirror), and checks the conventions: a README, and a description on
// every variable and output.
func TestFmtAndValidate(t *testing.T) { eachCLI(t, testFmtAndValidate) }

func testFmtAndValidate(t *testing.T, bin string) {
	dirs := configDirs(t)
	work := workCopy(t, "examples")
	fmtr := newTF(t, bin, root, nil)
	for _, d := range []string{"modules", "examples"} {
		r, err := fmtr.run("fmt", "-check", "-diff", "-recursive", d)
		if err != nil {
			t.Errorf("terraform fmt -check %s: files need formatting (run terraform fmt -recursive %s):\n%s%s", d, d, r.stdout, r.stderr)
		}
	}
	for _, d := range dirs {
		t.Run(strings.ReplaceAll(d, "/", "_"), func(t *testing.T) {
			t.Parallel()
			if _, err := os.Stat(filepath.Join(root, d, "README.md")); err != nil {
				t.Errorf("%s has no README.md", d)
			}
			checkDescriptions(t, filepath.Join(root, d))
			w := newTF(t, bin, filepath.Join(work, d), nil)
			w.must("init", "-input=false", "-backend=false")
			if r, err := w.run("validate"); err != nil {
				t.Errorf("terraform validate %s:\n%s%s", d, r.stdout, r.stderr)
			}
		})
	}
}

// checkDescriptions fails for every variable and output of the
// configuration in dir that has no description, and every variable whose
// name says it holds a secret but that is not marked sensitive.
func checkDescriptions(t *testing.T, dir string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.tf"))
	p := hclparse.NewParser()
	schema := &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "output", LabelNames: []string{"name"}},
	}}
	for _, f := range files {
		file, diags := p.ParseHCLFile(f)
		if diags.HasErrors() {
			t.Errorf("%s: %v", f, diags)
			continue
		}
		content, _, _ := file.Body.PartialContent(schema)
		for _, b := range content.Blocks {
			attrs, _ := b.Body.JustAttributes()
			where := filepath.Base(f) + ": " + b.Type + " " + b.Labels[0]
			if _, ok := attrs["description"]; !ok {
				t.Errorf("%s %s has no description", dir, where)
			}
			name := b.Labels[0]
			secret := !strings.HasSuffix(name, "_file") && !strings.HasSuffix(name, "_names") && (strings.Contains(name, "secret") || strings.HasSuffix(name, "_token") || strings.Contains(name, "private_key"))
			if _, ok := attrs["sensitive"]; secret && !ok && b.Type == "variable" {
				t.Errorf("%s %s looks secret but is not marked sensitive", dir, where)
			}
			if _, ok := attrs["sensitive"]; secret && !ok && b.Type == "output" {
				t.Errorf("%s %s looks secret but is not marked sensitive", dir, where)
			}
		}
	}
}

// TestModuleInputErrors checks that modules/fleet refuses bad input at plan
// time, before it touches a store or a host, and says what is wrong.
func TestModuleInputErrors(t *testing.T) { eachCLI(t, testModuleInputErrors) }

func testModuleInputErrors(t *testing.T, bin string) {
	work := workCopy(t)
	good := map[string]string{
		"name": "prod", "secret": strings.Repeat("s", 32), "artifact": "/nonexistent/dwk",
		"hosts": `[{"address":"local"}]`,
	}
	for _, tc := range []struct {
		name, value, want string
	}{
		{"name", "Prod", "fleet name must be 1-63 characters"},
		{"secret", "too-short", "at least 32 characters"},
		{"hosts", `[]`, "at least one host"},
		{"hosts", `[{"address":"10.0.0.5"}]`, "needs host_key"},
		{"bucket", "No_Bucket", "bucket name is 3-63 characters"},
		{"drain_timeout", "soon", "must be a duration"},
		{"service", "docker", "service must be"},
	} {
		t.Run(tc.name+"="+tc.value, func(t *testing.T) {
			vars := map[string]string{}
			for k, v := range good {
				vars[k] = v
			}
			vars[tc.name] = tc.value
			w := newTF(t, bin, filepath.Join(work, "modules", "fleet"), vars)
			w.must("init", "-input=false", "-backend=false")
			r, err := w.run("plan", "-input=false")
			if err == nil {
				t.Fatalf("plan with %s = %q succeeded, want an error", tc.name, tc.value)
			}
			if out := strings.Join(strings.Fields(r.stderr), " "); !strings.Contains(out, tc.want) {
				t.Errorf("plan with %s = %q failed without saying %q:\n%s", tc.name, tc.value, tc.want, r.stderr)
			}
		})
	}
}
