// Command dwkbench runs dwk's side-by-side benchmarks and writes one report
// (markdown and JSON). Every comparison runs both sides in this one process,
// back to back, so the ratios hold even on a noisy machine.
//
//	go run ./test/bench/dwkbench -dwk bin/dwk -out bench
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/buildinfo"
)

// Section is one part of the report.
type Section struct {
	Title string `json:"title"`
	// Command re-runs just this section.
	Command string     `json:"command"`
	Notes   string     `json:"notes,omitempty"`
	Header  []string   `json:"header"`
	Rows    [][]string `json:"rows"`
	// Data holds the raw figures.
	Data any `json:"data"`
}

type options struct {
	dwk         string
	duration    time.Duration
	concurrency int
	benchtime   string
}

type bench struct {
	name string
	run  func(ctx context.Context, o options) (Section, error)
}

var benches = []bench{
	{"http", benchHTTP},
	{"storage", benchStorage},
	{"libsql", benchLibsql},
	{"coord", benchCoord},
	{"queue", benchQueue},
	{"lb", benchLB},
	{"objects", benchObjects},
	{"fleet", benchFleet},
	{"leases", benchLeases},
	{"alarms", benchAlarmLag},
}

func main() {
	var o options
	out := flag.String("out", "bench", "directory for report.md and report.json")
	only := flag.String("only", "", "comma-separated sections to run (default all)")
	flag.StringVar(&o.dwk, "dwk", "bin/dwk", "dwk binary to benchmark")
	flag.DurationVar(&o.duration, "duration", 5*time.Second, "load duration per side")
	flag.IntVar(&o.concurrency, "concurrency", 16, "concurrent clients")
	flag.StringVar(&o.benchtime, "benchtime", "1s", "go test -benchtime for Go benchmarks")
	flag.Parse()

	ctx := context.Background()
	var sections []Section
	failed := false
	for _, b := range benches {
		if *only != "" && !strings.Contains(","+*only+",", ","+b.name+",") {
			continue
		}
		fmt.Fprintf(os.Stderr, "==> bench %s\n", b.name)
		s, err := b.run(ctx, o)
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench %s: %v\n", b.name, err)
			failed = true
			continue
		}
		sections = append(sections, s)
	}
	if err := write(*out, sections); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if failed {
		os.Exit(1)
	}
}

func write(dir string, sections []Section) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var md strings.Builder
	fmt.Fprintf(&md, "# dwk bench report\n\ndwk %s, %s, %s/%s, %d CPUs, %s.\n\n", buildinfo.Version(), runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), time.Now().UTC().Format(time.RFC3339))
	md.WriteString("Each table's sides ran back to back in one run; compare ratios, not absolute numbers.\n")
	for _, s := range sections {
		fmt.Fprintf(&md, "\n## %s\n\n", s.Title)
		if s.Notes != "" {
			md.WriteString(s.Notes + "\n\n")
		}
		md.WriteString("| " + strings.Join(s.Header, " | ") + " |\n|" + strings.Repeat(" --- |", len(s.Header)) + "\n")
		for _, r := range s.Rows {
			md.WriteString("| " + strings.Join(r, " | ") + " |\n")
		}
		fmt.Fprintf(&md, "\nRe-run: `%s`\n", s.Command)
	}
	if err := os.WriteFile(filepath.Join(dir, "report.md"), []byte(md.String()), 0o644); err != nil {
		return err
	}
	js, _ := json.MarshalIndent(sections, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "report.json"), js, 0o644); err != nil {
		return err
	}
	fmt.Print(md.String())
	return nil
}
