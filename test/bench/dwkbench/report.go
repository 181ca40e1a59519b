package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dwk/fleet/test/benchdocs"
)

// reportSchema is the version of report.json's layout.
const reportSchema = 2

// Report is report.json: the sections in the order of benches, the machine
// of the latest run, and every figure the docs may quote.
type Report struct {
	Schema   int       `json:"schema"`
	Machine  Machine   `json:"machine"`
	Sections []Section `json:"sections"`
	// Figures is what docs quote (package benchdocs), keyed
	// "<section>.<key>": every table cell that reads as a figure, keyed
	// "<row label>.<column header>" (benchdocs.TableFigures), and each
	// section's own Figures; plus "machine.cpus".
	Figures map[string]benchdocs.Figure `json:"figures"`
}

// Machine describes where and with what the latest sections ran.
type Machine struct {
	Version string `json:"version"`
	Go      string `json:"go"`
	OS      string `json:"os"`
	Arch    string `json:"arch"`
	CPUs    int    `json:"cpus"`
}

// loadReport reads dir/report.json, or returns an empty report when there
// is none.
func loadReport(dir string) (*Report, error) {
	data, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if errors.Is(err, os.ErrNotExist) {
		return &Report{Schema: reportSchema}, nil
	}
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil || r.Schema != reportSchema {
		return nil, fmt.Errorf("%s/report.json is not a schema %d report (%v): run every section to replace it", dir, reportSchema, err)
	}
	return &r, nil
}

// merge puts fresh sections in place of the sections of the same name and
// keeps the others, in the order of benches.
func (r *Report) merge(fresh []Section, m Machine) {
	byName := map[string]Section{}
	for _, s := range r.Sections {
		byName[s.Name] = s
	}
	for _, s := range fresh {
		byName[s.Name] = s
	}
	r.Sections = r.Sections[:0]
	for _, b := range benches {
		if s, ok := byName[b.name]; ok {
			r.Sections = append(r.Sections, s)
		}
	}
	r.Schema, r.Machine = reportSchema, m
	r.Figures = map[string]benchdocs.Figure{"machine.cpus": benchdocs.Count(float64(m.CPUs), "CPUs")}
	for _, s := range r.Sections {
		figs := benchdocs.TableFigures(s.Header, s.Rows)
		maps.Copy(figs, s.Figures)
		for k, f := range figs {
			r.Figures[s.Name+"."+k] = f
		}
	}
}

// markdown renders the report as report.md.
func (r *Report) markdown() string {
	var md strings.Builder
	m := r.Machine
	fmt.Fprintf(&md, "# dwk bench report\n\ndwk %s, %s, %s/%s, %d CPUs.\n\n", m.Version, m.Go, m.OS, m.Arch, m.CPUs)
	md.WriteString("Each table's sides ran back to back in one run; compare ratios, not absolute numbers. ")
	md.WriteString("The figures docs quote are in report.json (`figures`); `go run ./test/benchdocs/docfigures -list` lists them.\n")
	for _, s := range r.Sections {
		fmt.Fprintf(&md, "\n## %s\n\n", s.Title)
		if s.Notes != "" {
			md.WriteString(s.Notes + "\n\n")
		}
		md.WriteString("| " + strings.Join(s.Header, " | ") + " |\n|" + strings.Repeat(" --- |", len(s.Header)) + "\n")
		for _, row := range s.Rows {
			md.WriteString("| " + strings.Join(row, " | ") + " |\n")
		}
		if keys := slices.Sorted(maps.Keys(s.Figures)); len(keys) > 0 {
			md.WriteString("\n")
			for _, k := range keys {
				fmt.Fprintf(&md, "- `%s.%s`: %s\n", s.Name, k, s.Figures[k].Text)
			}
		}
		fmt.Fprintf(&md, "\nMeasured %s. Re-run: `%s`\n", s.MeasuredAt, s.Command)
	}
	return md.String()
}

// write writes report.json and report.md into dir.
func (r *Report) write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "report.json"), append(js, '\n'), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "report.md"), []byte(r.markdown()), 0o644)
}
