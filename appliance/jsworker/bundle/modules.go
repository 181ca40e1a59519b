package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"sync"
)

// ModulePrefix starts the specifier by which the script asks the runtime
// for Bundle.Modules[i]: ModulePrefix + strconv.Itoa(i).
const ModulePrefix = "dwk:module/"

// moduleTable collects the Data and CompiledWasm modules while esbuild
// loads them, in whatever order its goroutines run. Each gets a
// placeholder specifier of fixed width; finish replaces the placeholders
// by indices in path order, padding with spaces so that no column after
// them moves and the source map stays right.
type moduleTable struct {
	mu     sync.Mutex
	bySpec map[string]Module
}

// placeholderRe matches a placeholder string literal in the output, with
// either quote esbuild may print.
var placeholderRe = regexp.MustCompile(`(["'])` + regexp.QuoteMeta(ModulePrefix) + `\?([0-9a-f]{8})(["'])`)

// add records m and returns its placeholder specifier, which is derived
// from its name and type so that the script is the same whichever order
// esbuild loads modules in.
func (t *moduleTable) add(m Module) (string, error) {
	sum := sha256.Sum256([]byte(m.Type + "\x00" + m.Name))
	spec := ModulePrefix + "?" + hex.EncodeToString(sum[:4])
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.bySpec == nil {
		t.bySpec = map[string]Module{}
	}
	if old, ok := t.bySpec[spec]; ok && (old.Name != m.Name || old.Type != m.Type) {
		return "", fmt.Errorf("modules %s and %s share a placeholder; rename one", old.Name, m.Name)
	}
	t.bySpec[spec] = m
	return spec, nil
}

// finish replaces every placeholder in script by its module's index and
// returns the modules the script uses, ordered by name then type, which
// is the order of their indices. A module esbuild loaded but tree-shaking
// dropped is left out.
func (t *moduleTable) finish(script []byte) ([]byte, []Module, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	used := map[string]bool{}
	for _, m := range placeholderRe.FindAllSubmatch(script, -1) {
		spec := ModulePrefix + "?" + string(m[2])
		if _, ok := t.bySpec[spec]; !ok {
			return nil, nil, fmt.Errorf("bundle: the script names module %s, which was never loaded", spec)
		}
		used[spec] = true
	}
	specs := make([]string, 0, len(used))
	for spec := range used {
		specs = append(specs, spec)
	}
	sort.Slice(specs, func(i, j int) bool {
		a, b := t.bySpec[specs[i]], t.bySpec[specs[j]]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Type < b.Type
	})
	index := make(map[string]int, len(specs))
	modules := make([]Module, len(specs))
	for i, spec := range specs {
		index[spec] = i
		modules[i] = t.bySpec[spec]
	}
	out := placeholderRe.ReplaceAllFunc(script, func(lit []byte) []byte {
		m := placeholderRe.FindSubmatch(lit)
		spec := ModulePrefix + "?" + string(m[2])
		repl := string(m[1]) + ModulePrefix + strconv.Itoa(index[spec]) + string(m[3])
		return append([]byte(repl), bytes.Repeat([]byte(" "), len(lit)-len(repl))...)
	})
	return out, modules, nil
}
