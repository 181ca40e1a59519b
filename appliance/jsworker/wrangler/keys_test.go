package wrangler

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEListsEveryKey keeps README.md's table of top-level keys equal
// to keys: the same keys in the same order, with the same scope, decision
// and, for warnings and errors, the same reason.
func TestREADMEListsEveryKey(t *testing.T) {
	src, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	scopes := map[string]scope{"inherited": inherited, "per environment": perEnv, "top level only": topOnly}
	statuses := map[string]status{"read": read, "warning": ignored, "error": refused, "accepted": meta}
	var rows []key
	inTable := false
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "| key | scope |") {
			inTable = true
			continue
		}
		if inTable && !strings.HasPrefix(line, "|") {
			break
		}
		if !inTable || strings.HasPrefix(line, "| ---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 4 {
			t.Fatalf("README row %q: want 4 cells", line)
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		sc, ok1 := scopes[cells[1]]
		st, ok2 := statuses[cells[2]]
		if !ok1 || !ok2 {
			t.Fatalf("README row %q: unknown scope or decision", line)
		}
		k := key{name: strings.Trim(cells[0], "`"), scope: sc, status: st}
		if st == ignored || st == refused {
			k.why = cells[3]
		}
		rows = append(rows, k)
	}
	want := make([]key, len(keys))
	for i, k := range keys {
		if k.status == read || k.status == meta {
			k.why = ""
		}
		want[i] = k
	}
	if d := diff(rows, want); d != "" {
		t.Errorf("README.md's key table differs from keys.go: rows%s", d)
	}
}

// TestEveryReadKeyHasAReader checks that the table and the readers agree.
func TestEveryReadKeyHasAReader(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k.name] {
			t.Errorf("key %q is listed twice", k.name)
		}
		seen[k.name] = true
		_, has := readers[k.name]
		if has != (k.status == read) {
			t.Errorf("key %q: status %d, has a reader: %t", k.name, k.status, has)
		}
		if (k.status == ignored || k.status == refused) && k.why == "" {
			t.Errorf("key %q gives no reason", k.name)
		}
	}
	for name := range readers {
		if !seen[name] {
			t.Errorf("reader for %q, which keys does not list", name)
		}
	}
}

// TestEveryIgnoredKeyWarnsAndEveryRefusedKeyFails loads a file with each
// key of the table, one at a time.
func TestEveryIgnoredKeyWarnsAndEveryRefusedKeyFails(t *testing.T) {
	for _, k := range keys {
		if k.status != ignored && k.status != refused {
			continue
		}
		t.Run(k.name, func(t *testing.T) {
			src := `{"name": "w", "main": "i.js", "compatibility_date": "2025-01-15", "` + k.name + `": true}`
			p, err := load(t, "wrangler.json", src, Options{})
			switch k.status {
			case ignored:
				want := []string{"wrangler.json: " + k.name + ": ignored by dwk: " + k.why}
				if err != nil {
					t.Fatalf("Load: %v", err)
				}
				var got []string
				for _, w := range p.Warnings {
					got = append(got, w.String())
				}
				if d := diff(got, want); d != "" {
					t.Errorf("warnings%s", d)
				}
			case refused:
				want := []string{"wrangler.json: " + k.name + ": not supported by dwk: " + k.why}
				if d := diff(problemLines(t, err), want); d != "" {
					t.Errorf("errors%s", d)
				}
			}
		})
	}
}
