// Package appliance_test checks the layering that appliance/README.md
// describes.
package appliance_test

import (
	"os/exec"
	"strings"
	"testing"
)

// layers lists the groups of appliance/ from the top down; a package may
// import packages of its own group or of any group listed after it.
var layers = [][]string{
	{"cli"},
	{"server"},
	{"migrate"},
	{"bindings", "refworkers", "jsworker", "central"},
	{"fleet"},
	{"libsql", "process", "config", "worker"},
}

const prefix = "github.com/dwk/fleet/appliance/"

// level returns the layer of an appliance package, or -1 for others.
func level(path string) int {
	rest, ok := strings.CutPrefix(path, prefix)
	if !ok {
		return -1
	}
	group, _, _ := strings.Cut(rest, "/")
	for i, l := range layers {
		for _, g := range l {
			if g == group {
				return i
			}
		}
	}
	return -2
}

// TestLayers fails when a package imports a package of a higher layer
// (for example a binding importing server), or sits in no layer.
func TestLayers(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] == strings.TrimSuffix(prefix, "/") {
			continue
		}
		n++
		from := level(f[0])
		if from == -2 {
			t.Errorf("%s is in no group of appliance/README.md", f[0])
			continue
		}
		for _, imp := range f[1:] {
			if to := level(imp); to >= 0 && to < from {
				t.Errorf("%s imports %s, a layer above it", f[0], imp)
			}
		}
	}
	if n < 30 {
		t.Fatalf("go list found %d appliance packages; want the whole tree", n)
	}
}
