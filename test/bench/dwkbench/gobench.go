package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dwk/fleet/test/benchdocs"
)

// goBench is one Go benchmark function in one package.
type goBench struct {
	pkg  string // import path relative to the module, e.g. ./appliance/bindings/d1/d1local
	name string // benchmark function name, e.g. BenchmarkD1PointQuery
}

// pair compares a baseline benchmark with a candidate, run back to back.
type pair struct {
	label     string
	base, alt goBench
	baseName  string // e.g. "local"
	altName   string // e.g. "central"
}

// benchResult is one parsed benchmark line.
type benchResult struct {
	NsPerOp float64            `json:"ns_per_op"`
	Extra   map[string]float64 `json:"extra,omitempty"`
}

var benchLineRE = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

// runGoBench runs the benchmarks of one package matching names and returns
// results by name. benchtime bounds each benchmark.
func runGoBench(ctx context.Context, pkg string, names []string, benchtime string) (map[string]benchResult, error) {
	pattern := "^(" + strings.Join(names, "|") + ")$"
	cmd := exec.CommandContext(ctx, "go", "test", "-run", "^$", "-bench", pattern, "-benchtime", benchtime, "-benchmem", "-timeout", "60m", pkg)
	cmd.Env = os.Environ()
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go test -bench %s %s: %v\n%s", pattern, pkg, err, out.String())
	}
	res := map[string]benchResult{}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		m := benchLineRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		r := benchResult{Extra: map[string]float64{}}
		f := strings.Fields(m[2])
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			if f[i+1] == "ns/op" {
				r.NsPerOp = v
			} else {
				r.Extra[f[i+1]] = v
			}
		}
		res[m[1]] = r
	}
	for _, n := range names {
		if !reported(res, n) {
			return nil, fmt.Errorf("%s: benchmark %s did not report; output:\n%s", pkg, n, out.String())
		}
	}
	return res, nil
}

// runPairs runs each pair's two benchmarks one after the other and returns a
// section with their ratio.
func runPairs(ctx context.Context, title, command, notes string, pairs []pair, benchtime string) (Section, error) {
	s := Section{
		Title: title, Command: command, Notes: notes,
		Header: []string{"operation", "baseline", "baseline time/op", "candidate", "candidate time/op", "ratio"},
	}
	data := map[string]map[string]benchResult{}
	for _, p := range pairs {
		base, err := runGoBench(ctx, p.base.pkg, []string{p.base.name}, benchtime)
		if err != nil {
			return s, err
		}
		alt, err := runGoBench(ctx, p.alt.pkg, []string{p.alt.name}, benchtime)
		if err != nil {
			return s, err
		}
		b, a := base[p.base.name], alt[p.alt.name]
		data[p.label] = map[string]benchResult{p.baseName: b, p.altName: a}
		s.Rows = append(s.Rows, []string{
			p.label, p.baseName, fmtNs(b.NsPerOp), p.altName, fmtNs(a.NsPerOp), fmt.Sprintf("%.1fx", a.NsPerOp/b.NsPerOp),
		})
	}
	s.Data = data
	s.Figures = pairFigures(data)
	return s, nil
}

// pairFigures are the allocations per operation of each side of each
// pair, which the table does not show: "<Key(label)>.<side>_allocs", e.g.
// "d1_point_query.local_allocs".
func pairFigures(data map[string]map[string]benchResult) map[string]benchdocs.Figure {
	figs := map[string]benchdocs.Figure{}
	for label, sides := range data {
		for side, r := range sides {
			if allocs, ok := r.Extra["allocs/op"]; ok {
				figs[benchdocs.Key(label)+"."+side+"_allocs"] = benchdocs.Count(allocs, "allocs/op")
			}
		}
	}
	return figs
}

func fmtNs(ns float64) string {
	return time.Duration(ns).Round(time.Microsecond / 10).String()
}

// reported tells whether benchmark n, or any of its sub-benchmarks, reported.
func reported(res map[string]benchResult, n string) bool {
	for k := range res {
		if k == n || strings.HasPrefix(k, n+"/") {
			return true
		}
	}
	return false
}

// sortedNames lists benchmark names in order.
func sortedNames(res map[string]benchResult) []string {
	out := make([]string, 0, len(res))
	for k := range res {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
