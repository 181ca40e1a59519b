package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/dwk/fleet/test/benchdocs"
)

// scalePlot is the section's plot, beside report.md.
const scalePlot = "scale.png"

// scalePoint is the measurements of one number of members holding one
// number of objects.
type scalePoint struct {
	members, objects int
	r                benchResult
}

// key names a point's figures: the object count for the points of the
// harness's usual members ("100000"), members and objects for the others
// ("m12.100000").
func (p scalePoint) key(usual int) string {
	if p.members == usual {
		return strconv.Itoa(p.objects)
	}
	return fmt.Sprintf("m%d.%d", p.members, p.objects)
}

// scaleMembers is the harness's usual number of members (test/scale.Members).
const scaleMembers = 3

// benchScale runs the scale harness (test/scale): as the objects held
// across simulated members grow, what opening, holding and failing them
// over costs. It is run by `make scale`, not by `make bench`.
func benchScale(ctx context.Context, o options) (Section, error) {
	bin, err := filepath.Abs(o.dwk)
	if err != nil {
		return Section{}, err
	}
	os.Setenv("DWK_BIN", bin)
	res, err := runGoBench(ctx, "./test/scale", []string{"BenchmarkScale"}, "1x")
	if err != nil {
		return Section{}, err
	}
	var points []scalePoint
	for name, r := range res {
		rest, ok := strings.CutPrefix(name, "BenchmarkScale/")
		if !ok {
			continue
		}
		var p scalePoint
		if _, err := fmt.Sscanf(rest, "members=%d/objects=%d", &p.members, &p.objects); err != nil {
			return Section{}, fmt.Errorf("benchmark %s: %v", name, err)
		}
		p.r = r
		points = append(points, p)
	}
	if len(points) == 0 {
		return Section{}, fmt.Errorf("BenchmarkScale reported no points")
	}
	sort.Slice(points, func(i, j int) bool {
		if points[i].members != points[j].members {
			return points[i].members < points[j].members
		}
		return points[i].objects < points[j].objects
	})
	s := Section{
		Title:   "Scale: coordination cost as the objects held and the members grow",
		Command: "make scale  (or: go run ./test/bench/dwkbench -only scale; DWK_SCALE_OBJECTS=1000,10000 picks the counts)",
		Notes: "Simulated members in one process (three for every object count, twelve for the largest), each a real lease manager with its own coordination client, hold the objects " +
			"against one real `dwk libsql` on this machine, at default lease settings (2 s TTL, one heartbeat per member every TTL/3 keeps all its leases). Open: the lease " +
			"acquisition of each new object, 16 at once. Idle: over 10 s once every object is held, coordination round trips per second " +
			"per member, the libSQL server's CPU as a share of one core, and the share of the leases still held at its end (a member whose heartbeats fall behind loses its leases). " +
			"Failover: one member's link to the libSQL server stalls (every request hangs, as under SIGSTOP), then another's is cut " +
			"(every request fails, as after kill -9); nothing is released, and a third member takes one object of each, retrying every 10 ms.\n\n![idle cost against objects held](" + scalePlot + ")",
		Header:  []string{"members", "objects", "opens/s", "open p50", "open p99", "idle round trips/s per member", "idle libSQL CPU", "leases still held", "failover, stall", "failover, cut"},
		Figures: map[string]benchdocs.Figure{},
		Data:    res,
	}
	for _, p := range points {
		e := func(k string) float64 { return p.r.Extra[k] }
		fail := time.Duration(e("failover-s") * float64(time.Second))
		stall := time.Duration(e("failover-stop-s") * float64(time.Second))
		s.Rows = append(s.Rows, []string{
			strconv.Itoa(p.members), strconv.Itoa(p.objects), fmt.Sprintf("%.0f", e("opens/s")),
			fmtNs(e("open-p50-ms") * 1e6), fmtNs(e("open-p99-ms") * 1e6),
			fmt.Sprintf("%.1f", e("idle-rt/s/member")), fmt.Sprintf("%.1f%%", e("idle-libsql-cpu-%")), fmt.Sprintf("%.1f%%", e("held-after-idle-%")),
			fmtNs(float64(stall)), fmtNs(float64(fail)),
		})
		k := p.key(scaleMembers)
		s.Figures["rt."+k] = benchdocs.Fixed(e("idle-rt/s/member"), 1, "round trips/s")
		s.Figures["cpu."+k] = benchdocs.Fixed(e("idle-libsql-cpu-%"), 1, "%")
		s.Figures["held."+k] = benchdocs.Fixed(e("held-after-idle-%"), 1, "%")
		s.Figures["open."+k] = benchdocs.Duration(time.Duration(e("open-p50-ms") * 1e6))
		s.Figures["failover."+k] = benchdocs.Duration(fail)
		s.Figures["failover_stop."+k] = benchdocs.Duration(stall)
	}
	var usual []scalePoint
	for _, p := range points {
		if p.members == scaleMembers {
			usual = append(usual, p)
		}
	}
	if err := plotScale(usual, filepath.Join(o.out, scalePlot)); err != nil {
		return Section{}, err
	}
	return s, nil
}

// plotScale draws the idle costs against the objects held (log scale).
func plotScale(points []scalePoint, path string) error {
	p := plot.New()
	p.Title.Text = "Idle coordination cost, 3 members"
	p.X.Label.Text = "objects held"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Y.Label.Text = "round trips/s per member; libSQL CPU, % of a core"
	rt, cpu := make(plotter.XYs, len(points)), make(plotter.XYs, len(points))
	for i, pt := range points {
		rt[i] = plotter.XY{X: float64(pt.objects), Y: pt.r.Extra["idle-rt/s/member"]}
		cpu[i] = plotter.XY{X: float64(pt.objects), Y: pt.r.Extra["idle-libsql-cpu-%"]}
	}
	if err := plotutil.AddLinePoints(p, "round trips/s per member", rt, "libSQL CPU %", cpu); err != nil {
		return err
	}
	// From zero, so that a flat cost looks flat, with room above for the
	// legend.
	top := 0.0
	for i := range rt {
		top = max(top, rt[i].Y, cpu[i].Y)
	}
	p.Y.Min, p.Y.Max = 0, top*1.5
	p.Legend.Top, p.Legend.Left = true, true
	return p.Save(7*vg.Inch, 4*vg.Inch, path)
}
