package modulevars

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// root is the repository root, three levels up.
var root = filepath.Join("..", "..", "..")

// TestCommittedFilesAreGenerated is the drift test: the modules' files
// hold what go generate writes, so modules/fleet's defaults are
// dwk_fleet's (and dwk's) and modules/staging's copies are modules/fleet's.
func TestCommittedFilesAreGenerated(t *testing.T) {
	files, err := Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Errorf("%s: %v (run go generate ./provider/... and commit the result)", f.Path, err)
			continue
		}
		if !bytes.Equal(got, f.Content) {
			t.Errorf("%s differs from what go generate ./provider/... writes; run it and commit the result. %s",
				f.Path, firstDifference(got, f.Content))
		}
	}
}

// firstDifference describes the first line where got and want differ.
func firstDifference(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "Line " + strconv.Itoa(i+1) + ":\n  committed: " + gl + "\n  generated: " + wl
		}
	}
	return ""
}

const fleetTF = `# A comment that stays.
variable "lease_ttl" {
  description = "TTL."
  type        = string
  default     = "99s" # stale
  nullable    = false
}

variable "replicas" {
  description = "How many."
  type        = number
  default     = 7
}

variable "flag" {
  description = "A flag."
  type        = bool
  default     = true

  validation {
    condition     = var.flag != null
    error_message = "Set it."
  }
}

variable "untouched" {
  description = "Not in the values."
  type        = string
  default     = "as written"
}
`

func TestSetDefaults(t *testing.T) {
	got, err := SetDefaults([]byte(fleetTF), "variables.tf", map[string]any{
		"lease_ttl": "10s", "replicas": int64(3), "flag": false,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(`"99s"`, `"10s"`, "= 7\n", "= 3\n", "= true\n", "= false\n").Replace(fleetTF)
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	again, err := SetDefaults(got, "variables.tf", map[string]any{"lease_ttl": "10s", "replicas": int64(3), "flag": false})
	if err != nil || !bytes.Equal(again, got) {
		t.Errorf("not idempotent: %v\n%s", err, again)
	}
}

func TestSetDefaultsErrors(t *testing.T) {
	for _, tt := range []struct {
		name   string
		values map[string]any
		want   string
	}{
		{"no such variable", map[string]any{"nope": "x"}, `no variable "nope"`},
		{"escaping", map[string]any{"untouched": `${x}`}, "needs escaping"},
		{"type", map[string]any{"untouched": 1.5}, "unsupported default"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := SetDefaults([]byte(fleetTF), "variables.tf", tt.values)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one saying %q", err, tt.want)
			}
		})
	}
	noDefault := "variable \"x\" {\n  type = string\n}\n"
	if _, err := SetDefaults([]byte(noDefault), "v.tf", map[string]any{"x": "y"}); err == nil || !strings.Contains(err.Error(), "no default") {
		t.Errorf("err = %v, want one saying the variable has no default", err)
	}
}

func TestCopy(t *testing.T) {
	got, err := Copy([]byte(fleetTF), "variables.tf", []string{"flag", "replicas"}, "# Header.\n")
	if err != nil {
		t.Fatal(err)
	}
	flag := fleetTF[strings.Index(fleetTF, `variable "flag"`):strings.Index(fleetTF, `variable "untouched"`)]
	replicas := fleetTF[strings.Index(fleetTF, `variable "replicas"`):strings.Index(fleetTF, `variable "flag"`)]
	want := "# Header.\n\n" + flag + strings.TrimSuffix(replicas, "\n")
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if _, err := Copy([]byte(fleetTF), "variables.tf", []string{"nope"}, ""); err == nil {
		t.Error("copying a variable that does not exist succeeded")
	}
}
