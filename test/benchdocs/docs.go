package benchdocs

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ResultsDir is where the result files live, relative to the repository
// root.
const ResultsDir = "bench"

// Problem is one way a doc differs from its result files.
type Problem struct {
	File string // relative to the repository root
	Line int
	Msg  string
}

// String is the problem as "file:line: message".
func (p Problem) String() string { return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg) }

// Docs lists the markdown files under root that hold markers or are
// Strict, relative to root, in order. Hidden directories, testdata,
// node_modules and bin are skipped.
func Docs(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".md") {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(data, markerOpen) || slices.Contains(Strict, rel) {
			out = append(out, rel)
		}
		return nil
	})
	return out, err
}

// Check regenerates every doc under root in memory from the result files
// in root/bench and reports each marked figure that differs, each marker
// that cannot be filled, and each measurement typed outside a marker in a
// Strict doc.
func Check(root string) ([]Problem, error) {
	docs, err := Docs(root)
	if err != nil {
		return nil, err
	}
	src := NewSources(filepath.Join(root, ResultsDir))
	var probs []Problem
	for _, rel := range docs {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			return nil, err
		}
		refs, err := Refs(data)
		if err != nil {
			probs = append(probs, Problem{File: rel, Msg: err.Error()})
			continue
		}
		for _, r := range refs {
			f, err := src.Lookup(r.Source, r.Key)
			switch {
			case err != nil:
				probs = append(probs, Problem{File: rel, Line: r.Line, Msg: err.Error()})
			case f.Text != r.Text:
				probs = append(probs, Problem{File: rel, Line: r.Line,
					Msg: fmt.Sprintf("%s:%s reads %q here but %q in %s/%s.json", r.Source, r.Key, r.Text, f.Text, ResultsDir, r.Source)})
			}
		}
		if slices.Contains(Strict, rel) {
			bare := Bare(data)
			lines := make([]int, 0, len(bare))
			for l := range bare {
				lines = append(lines, l)
			}
			slices.Sort(lines)
			for _, l := range lines {
				probs = append(probs, Problem{File: rel, Line: l,
					Msg: fmt.Sprintf("%q is a measurement typed by hand: quote it with a marker (<!-- fig SOURCE:KEY -->…<!-- /fig -->) or put a configuration value in a code span", bare[l])})
			}
		}
	}
	return probs, nil
}

// Write fills every marker of every doc under root from the result files
// and writes the docs that changed; it returns their paths relative to
// root. Nothing is written when any marker cannot be filled.
func Write(root string) ([]string, error) {
	docs, err := Docs(root)
	if err != nil {
		return nil, err
	}
	src := NewSources(filepath.Join(root, ResultsDir))
	filled := map[string][]byte{}
	for _, rel := range docs {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			return nil, err
		}
		out, err := Fill(data, src.Lookup)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rel, err)
		}
		if !bytes.Equal(out, data) {
			filled[rel] = out
		}
	}
	var changed []string
	for _, rel := range docs {
		if out, ok := filled[rel]; ok {
			if err := os.WriteFile(filepath.Join(root, rel), out, 0o644); err != nil {
				return changed, err
			}
			changed = append(changed, rel)
		}
	}
	return changed, nil
}

// Root finds the repository root: the nearest directory at or above dir
// holding go.mod.
func Root(dir string) (string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("no go.mod at or above %s", dir)
		}
		d = parent
	}
}
