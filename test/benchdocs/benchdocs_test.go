package benchdocs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRepositoryDocsMatchResults is the check make test runs: every marked
// figure in the repository's docs is what its result file under bench/
// says, and docs/limits.md states no measurement outside a marker.
func TestRepositoryDocsMatchResults(t *testing.T) {
	root, err := Root(".")
	if err != nil {
		t.Fatal(err)
	}
	probs, err := Check(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probs {
		t.Error(p)
	}
	if len(probs) > 0 {
		t.Log("regenerate with 'make docs-figures' (after 'make bench' or 'make soak'); put configuration values in code spans")
	}
}

func TestFigureText(t *testing.T) {
	tests := []struct {
		got  Figure
		want string
	}{
		{Duration(4680 * time.Nanosecond), "4.68 µs"},
		{Duration(45400 * time.Nanosecond), "45.4 µs"},
		{Duration(813 * time.Microsecond), "813 µs"},
		{Duration(1575700 * time.Nanosecond), "1.58 ms"},
		{Duration(2056 * time.Millisecond), "2.06 s"},
		{Duration(150 * time.Second), "2.5 min"},
		{Duration(999_999 * time.Nanosecond), "1.00 ms"},
		{Duration(59_990 * time.Millisecond), "1.0 min"},
		{Count(5831, ""), "5,831"},
		{Count(1234567, ""), "1,234,567"},
		{Count(0, ""), "0"},
		{Ratio(59.6), "60x"},
		{Ratio(5.74), "5.7x"},
		{Ratio(9.96), "10x"},
		{Ratio(0.26), "0.26x"},
		{Fixed(0, 3, ""), "0.000"},
		{Bytes(150937), "147 KiB"},
		{Bytes(150937 * 10000), "1.41 GiB"},
		{Bytes(900), "900 B"},
		{Bytes(1018 << 20), "0.99 GiB"},
		{Text("strict"), "strict"},
	}
	for _, tt := range tests {
		if tt.got.Text != tt.want {
			t.Errorf("got %q, want %q", tt.got.Text, tt.want)
		}
	}
}

func TestFromCell(t *testing.T) {
	tests := []struct {
		cell, want string
		ok         bool
	}{
		{"1.5757ms", "1.58 ms", true},
		{"264µs", "264 µs", true},
		{"820 ms", "820 ms", true},
		{"59.6x", "60x", true},
		{"47358", "47,358", true},
		{"0.254", "0.254", true},
		{"0", "0", true},
		{"heap 147.4 KiB/socket", "", false},
		{"local", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		f, ok := FromCell(tt.cell)
		if ok != tt.ok || f.Text != tt.want {
			t.Errorf("FromCell(%q) = %q, %v; want %q, %v", tt.cell, f.Text, ok, tt.want, tt.ok)
		}
	}
	figs := TableFigures([]string{"operation", "central time/op", "ratio"}, [][]string{{"D1 point query", "280.4µs", "59.6x"}})
	if got := figs["d1_point_query.central_time_op"].Text; got != "280 µs" {
		t.Errorf("d1_point_query.central_time_op = %q, want 280 µs (figures %v)", got, figs)
	}
	if got := figs["d1_point_query.ratio"].Text; got != "60x" {
		t.Errorf("d1_point_query.ratio = %q, want 60x", got)
	}
}

func lookupOf(figs map[string]Figure) Lookup {
	return func(source, key string) (Figure, error) {
		f, ok := figs[source+":"+key]
		if !ok {
			return Figure{}, ErrNoFigure
		}
		return f, nil
	}
}

func TestFill(t *testing.T) {
	figs := map[string]Figure{"report:a.b": Count(11813, "req/s"), "soak-1m-1:faults": Count(5, "")}
	tests := []struct {
		name, doc, want string
		err             error
	}{
		{"fills and keeps prose",
			"x <!-- fig report:a.b -->1<!-- /fig --> req/s, <!-- fig soak-1m-1:faults --><!-- /fig --> faults\n",
			"x <!-- fig report:a.b -->11,813<!-- /fig --> req/s, <!-- fig soak-1m-1:faults -->5<!-- /fig --> faults\n", nil},
		{"unknown key", "<!-- fig report:nope -->1<!-- /fig -->", "", ErrNoFigure},
		{"malformed", "<!-- fig report:a.b -->1\n<!-- /fig -->", "", nil},
	}
	for _, tt := range tests {
		got, err := Fill([]byte(tt.doc), lookupOf(figs))
		switch {
		case tt.err != nil && !errors.Is(err, tt.err):
			t.Errorf("%s: err = %v, want %v", tt.name, err, tt.err)
		case tt.want == "" && err == nil:
			t.Errorf("%s: no error", tt.name)
		case tt.want != "" && (err != nil || string(got) != tt.want):
			t.Errorf("%s: got %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}

func TestBare(t *testing.T) {
	doc := "Front door: 11,813 req/s against <!-- fig report:a -->37,218<!-- /fig --> direct.\n" +
		"With `lease.ttl = 2s` and kill -9s, every TTL/3, code 1012.\n" +
		"```\nmake soak DURATION=10m # 10 minutes\n```\n" +
		"A ratio of 16x.\n" +
		"It took 2 s.\n" +
		"\n    make soak   # 60 s\n" +
		"- a list item\n    continued over 5 ms.\n"
	got := Bare([]byte(doc))
	want := map[int]string{1: "11,813 req/s", 6: "16x", 7: "2 s", 11: "5 ms"}
	if len(got) != len(want) {
		t.Errorf("Bare = %v, want lines %v", got, want)
	}
	for l, w := range want {
		if !strings.Contains(got[l], w) {
			t.Errorf("line %d: got %q, want %q", l, got[l], w)
		}
	}
}

// TestCheckCatchesHandEdits: a figure changed by hand, a missing key and
// a measurement typed into a Strict doc are problems; Write fixes the
// first, and then Check passes.
func TestCheckCatchesHandEdits(t *testing.T) {
	root := t.TempDir()
	write := func(rel, s string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example\n")
	write("bench/report.json", `{"figures": {"lb.rps": {"value": 13450, "unit": "req/s", "text": "13,450"}}}`)
	write("docs/limits.md", "Front door (<!-- fig report:_file -->`bench/report.json`<!-- /fig -->): <!-- fig report:lb.rps -->11,813<!-- /fig --> req/s.\n")
	write("README.md", "No figures here: 5 ms.\n")

	probs, err := Check(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(probs) != 1 || !strings.Contains(probs[0].Msg, `"11,813" here but "13,450"`) {
		t.Fatalf("Check = %v, want the hand-edited figure", probs)
	}
	changed, err := Write(root)
	if err != nil || len(changed) != 1 || changed[0] != "docs/limits.md" {
		t.Fatalf("Write = %v, %v", changed, err)
	}
	if probs, err := Check(root); err != nil || len(probs) != 0 {
		t.Fatalf("after Write, Check = %v, %v", probs, err)
	}

	write("docs/limits.md", "Front door: <!-- fig report:lb.rps -->13,450<!-- /fig --> req/s, 3.1x a bare proxy; <!-- fig report:lb.gone --><!-- /fig -->.\n")
	probs, err = Check(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(probs) != 2 || !strings.Contains(probs[0].Msg, "no such figure") || !strings.Contains(probs[1].Msg, "3.1x") {
		t.Fatalf("Check = %v, want a missing key and a figure typed by hand", probs)
	}
	if _, err := Write(root); err == nil {
		t.Error("Write filled a doc with a missing key")
	}
}
