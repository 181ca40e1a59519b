// Command dwkbench runs dwk's side-by-side benchmarks and writes one report
// (markdown and JSON). Every comparison runs both sides in this one process,
// back to back, so the ratios hold even on a noisy machine.
//
//	go run ./test/bench/dwkbench -dwk bin/dwk -out bench               # every section
//	go run ./test/bench/dwkbench -dwk bin/dwk -out bench -only fleet   # refresh one section
//
// report.json holds the sections and the figures docs quote (package
// test/benchdocs): a run with -only replaces those sections in the
// existing report and keeps the others.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/process/buildinfo"
	"github.com/dwk/fleet/test/benchdocs"
)

// Section is one part of the report.
type Section struct {
	// Name is the section's name in -only and the prefix of its figures;
	// main sets it.
	Name  string `json:"name"`
	Title string `json:"title"`
	// Command re-runs just this section.
	Command string     `json:"command"`
	Notes   string     `json:"notes,omitempty"`
	Header  []string   `json:"header"`
	Rows    [][]string `json:"rows"`
	// Figures are figures docs may quote that no table cell holds, by key
	// (the section's name is prefixed in the report's figures).
	Figures map[string]benchdocs.Figure `json:"figures,omitempty"`
	// MeasuredAt is when the section ran (RFC 3339, UTC); main sets it.
	MeasuredAt string `json:"measured_at"`
	// Data holds the raw figures.
	Data any `json:"data"`
}

type options struct {
	out         string // the output directory
	dwk         string
	duration    time.Duration
	concurrency int
	benchtime   string
	namespaces  int // namespaces in the namespaces section
}

type bench struct {
	name string
	run  func(ctx context.Context, o options) (Section, error)
	// optIn sections run only when -only names them (make scale).
	optIn bool
}

var benches = []bench{
	{"http", benchHTTP, false},
	{"storage", benchStorage, false},
	{"libsql", benchLibsql, false},
	{"coord", benchCoord, false},
	{"queue", benchQueue, false},
	{"lb", benchLB, false},
	{"objects", benchObjects, false},
	{"peerlink", benchPeerLink, false},
	{"fleet", benchFleet, false},
	{"leases", benchLeases, false},
	{"alarms", benchAlarmLag, false},
	{"namespaces", benchNamespaces, false},
	{"backup", benchBackup, false},
	{"objectapi", benchObjectAPI, false},
	{"js", benchJS, false},
	{"migrate", benchMigrate, false},
	{name: "scale", run: benchScale, optIn: true},
}

// optIn reports whether the section called name runs only when named.
func optIn(name string) bool {
	for _, b := range benches {
		if b.name == name {
			return b.optIn
		}
	}
	return false
}

func main() {
	var o options
	flag.StringVar(&o.out, "out", "bench", "directory for report.md and report.json")
	out := &o.out
	only := flag.String("only", "", "comma-separated sections to run, merged into the existing report (default all but the opt-in scale, replacing them)")
	flag.StringVar(&o.dwk, "dwk", "bin/dwk", "dwk binary to benchmark")
	flag.DurationVar(&o.duration, "duration", 5*time.Second, "load duration per side")
	flag.IntVar(&o.concurrency, "concurrency", 16, "concurrent clients")
	flag.StringVar(&o.benchtime, "benchtime", "1s", "go test -benchtime for Go benchmarks")
	flag.IntVar(&o.namespaces, "namespaces", 100_000, "namespaces the namespaces section creates")
	flag.Parse()

	r, err := loadReport(*out)
	if err != nil && *only != "" {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *only == "" {
		// Every section is replaced but the opt-in ones, which this run
		// does not measure.
		kept := &Report{}
		if err == nil {
			for _, s := range r.Sections {
				if optIn(s.Name) {
					kept.Sections = append(kept.Sections, s)
				}
			}
		}
		r = kept
	}
	ctx := context.Background()
	var sections []Section
	failed := false
	for _, b := range benches {
		if *only != "" && !strings.Contains(","+*only+",", ","+b.name+",") || *only == "" && b.optIn {
			continue
		}
		fmt.Fprintf(os.Stderr, "==> bench %s\n", b.name)
		s, err := b.run(ctx, o)
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench %s: %v\n", b.name, err)
			failed = true
			continue
		}
		s.Name, s.MeasuredAt = b.name, time.Now().UTC().Format(time.RFC3339)
		sections = append(sections, s)
	}
	r.merge(sections, Machine{Version: buildinfo.Version(), Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU()})
	if err := r.write(*out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Print(r.markdown())
	if failed {
		os.Exit(1)
	}
}
