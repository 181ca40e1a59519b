package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"

	"github.com/dwk/fleet/test/bench/load"
	"github.com/dwk/fleet/test/benchdocs"
)

// jsRounds is how many times each side of a req/s comparison runs, taking
// turns; the median round counts.
const jsRounds = 3

// benchJS measures the JavaScript runtime against its Go equivalents in
// the same dwk serve: a hello handler, a counter object (local and
// central), the first response of a freshly started 300 KB bundle, the
// memory of an idle object and of hibernated WebSockets, and how the
// isolates spread over cores.
func benchJS(ctx context.Context, o options) (Section, error) {
	app, err := filepath.Abs("test/bench/jsbench/app/wrangler.jsonc")
	if err != nil {
		return Section{}, err
	}
	s := Section{
		Title:   "JavaScript: Workers projects on goja against the same apps in Go, in one dwk serve",
		Command: "go run ./test/bench/dwkbench -only js",
		Header:  []string{"measure", "JavaScript", "Go", "JS/Go", "goal"},
		Figures: map[string]benchdocs.Figure{},
	}
	data := map[string]any{}
	fig := func(key string, v float64, unit, text string) {
		s.Figures[key] = benchdocs.Figure{Value: v, Unit: unit, Text: text}
	}

	// Requests per second, local mode, both sides in one dwk serve.
	local, err := jsLocal(ctx, o, app)
	if err != nil {
		return Section{}, err
	}
	data["local"] = local
	central, err := jsCentral(ctx, o)
	if err != nil {
		return Section{}, err
	}
	data["central"] = central
	for _, c := range []struct {
		key, label, goal string
		js, gov          float64
	}{
		{"hello", "hello fetch handler, req/s (local)", "≥ 0.5×", local["js-hello"], local["go-hello"]},
		{"counter_inc_local", "object counter increments, req/s (local)", "≥ 0.8×", local["js-inc"], local["go-inc"]},
		{"counter_get_local", "object counter reads, req/s (local)", "≥ 0.5×", local["js-get"], local["go-get"]},
		{"counter_inc_central", "object counter increments, req/s (central, 1 replica)", "≥ 0.8×", central["js-inc-rps"], central["go-inc-rps"]},
		{"counter_get_central", "object counter reads, req/s (central, 1 replica)", "≥ 0.5×", central["js-get-rps"], central["go-get-rps"]},
	} {
		ratio := c.js / c.gov
		s.Rows = append(s.Rows, []string{c.label, fmt.Sprintf("%.0f", c.js), fmt.Sprintf("%.0f", c.gov), fmt.Sprintf("%.2f×", ratio), c.goal})
		fig(c.key+".js", c.js, "req/s", fmt.Sprintf("%.0f", c.js))
		fig(c.key+".go", c.gov, "req/s", fmt.Sprintf("%.0f", c.gov))
		fig(c.key+".ratio", ratio, "x", fmt.Sprintf("%.2f×", ratio))
	}

	// The first response of a freshly started worker with a 300 KB bundle.
	cold, err := jsColdStart(ctx)
	if err != nil {
		return Section{}, err
	}
	data["cold_start"] = cold
	s.Rows = append(s.Rows, []string{fmt.Sprintf("first response after start, %.0f KB bundle (median of %d)", cold.KB, len(cold.Runs)),
		fmtMs(cold.Median), "", "", "≤ 100 ms"})
	fig("cold_start.median", float64(cold.Median), "ns", fmtMs(cold.Median))
	fig("cold_start.kb", cold.KB, "KB", fmt.Sprintf("%.0f KB", cold.KB))

	// Memory: an idle object, and hibernated WebSockets.
	mem, err := jsMemory(ctx, o, app)
	if err != nil {
		return Section{}, err
	}
	data["memory"] = mem
	s.Rows = append(s.Rows,
		[]string{fmt.Sprintf("idle object, RSS per object (%d objects)", mem.Objects), kib(mem.JSObject), kib(mem.GoObject), fmt.Sprintf("%.2f×", mem.JSObject/mem.GoObject), ""},
		[]string{"idle object, what JavaScript adds to the Go object's RSS", kib(mem.JSObject - mem.GoObject), "", "", "≤ 50 KiB"},
		[]string{fmt.Sprintf("%d hibernated WebSockets in %d rooms, RSS", mem.Sockets, mem.Rooms), mibText(mem.JSSockets), mibText(mem.GoSockets), fmt.Sprintf("%.2f×", mem.JSSockets/mem.GoSockets), "≤ 1.2×"},
	)
	fig("idle_object.js", mem.JSObject, "B", kib(mem.JSObject))
	fig("idle_object.go", mem.GoObject, "B", kib(mem.GoObject))
	fig("idle_object.js_extra", mem.JSObject-mem.GoObject, "B", kib(mem.JSObject-mem.GoObject))
	fig("sockets.js", mem.JSSockets, "B", mibText(mem.JSSockets))
	fig("sockets.go", mem.GoSockets, "B", mibText(mem.GoSockets))
	fig("sockets.ratio", mem.JSSockets/mem.GoSockets, "x", fmt.Sprintf("%.2f×", mem.JSSockets/mem.GoSockets))

	// Cores: the hello handler in process on one core and on two.
	cores, err := runGoBench(ctx, "./appliance/jsworker", []string{"BenchmarkFetchHelloCores"}, o.benchtime)
	if err != nil {
		return Section{}, err
	}
	data["cores"] = cores
	one, two := cores["BenchmarkFetchHelloCores/cores=1"].Extra["req/s"], cores["BenchmarkFetchHelloCores/cores=2"].Extra["req/s"]
	if one == 0 || two == 0 {
		return Section{}, fmt.Errorf("BenchmarkFetchHelloCores reported no req/s: %v", cores)
	}
	s.Rows = append(s.Rows, []string{"hello handler in process, req/s on 2 cores against 1", fmt.Sprintf("%.0f / %.0f", two, one), "", fmt.Sprintf("%.2f×", two/one), "≥ 1.6×"})
	fig("cores.ratio", two/one, "x", fmt.Sprintf("%.2f×", two/one))
	hello := cores["BenchmarkFetchHelloCores/cores=2"].Extra
	s.Rows = append(s.Rows, []string{"hello handler in process, Go heap allocated per request", fmt.Sprintf("%.1f KB in %.0f allocations", hello["B/op"]/1000, hello["allocs/op"]), "", "", ""})
	fig("hello_alloc.bytes", hello["B/op"], "B", fmt.Sprintf("%.1f KB", hello["B/op"]/1000))
	fig("hello_alloc.allocs", hello["allocs/op"], "", fmt.Sprintf("%.0f", hello["allocs/op"]))

	s.Notes = fmt.Sprintf("Each req/s row runs its two sides %d times each, taking turns, %v per run with %d keep-alive clients on loopback, and takes each side's median run; "+
		"JavaScript is test/bench/jsbench/app (its counter has the Go counter's schema and statements), Go is the reference workers plain (hello) and counter, in the same dwk serve. "+
		"Central: one replica over dwk libsql and versitygw (fleet test harness). "+
		"First response: the 300 KB bundle (Hono, Zod and generated routes) compiled, its first isolate started and one request answered, in process, after bundling; %d runs. "+
		"Memory: a fresh dwk serve per side; RSS growth of the dwk process per object created (one row written, left idle: in either language most of it is the object's open SQLite database, so the goal is set on what JavaScript adds), and for sockets opened %d per room with objects.idle_timeout 1s, measured once every room hibernated. "+
		"Cores: BenchmarkFetchHelloCores (appliance/jsworker), the handler called in process with GOMAXPROCS and the isolate count set to 1, then 2; the load generator shares the machine, so the HTTP figures cannot show two cores.",
		jsRounds, o.duration, o.concurrency, len(cold.Runs), mem.Sockets/mem.Rooms)
	s.Data = data
	return s, nil
}

// jsLocal runs the req/s comparisons in one local-mode dwk serve holding
// both the Go reference workers and the JavaScript project.
func jsLocal(ctx context.Context, o options, app string) (map[string]float64, error) {
	dir, err := os.MkdirTemp("", "dwkbench-js-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cfg, err := jsConfig(dir, app, "60s")
	if err != nil {
		return nil, err
	}
	d, err := startDWK(ctx, o.dwk, "serve", "--config", cfg)
	if err != nil {
		return nil, err
	}
	defer d.stop()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.concurrency * 2}}
	get := func(path string) func(ctx context.Context, i int) error {
		return func(ctx context.Context, i int) error {
			return do(ctx, client, http.MethodGet, fmt.Sprintf(d.url+path, i))
		}
	}
	post := func(path string) func(ctx context.Context, i int) error {
		return func(ctx context.Context, i int) error {
			return do(ctx, client, http.MethodPost, fmt.Sprintf(d.url+path, i))
		}
	}
	sides := []struct {
		name string
		op   func(ctx context.Context, i int) error
	}{
		{"go-hello", get("/go/hello?%d")},
		{"js-hello", get("/js/hello?%d")},
		{"go-inc", post("/counter/bench-%d/increment")},
		{"js-inc", post("/js/counter/bench-%d/increment")},
		{"go-get", get("/counter/bench-%d")},
		{"js-get", get("/js/counter/bench-%d")},
	}
	for _, sd := range sides {
		load.Run(ctx, "warm", o.concurrency, time.Second, sd.op)
	}
	runs := map[string][]float64{}
	for range jsRounds {
		for _, sd := range sides {
			r := load.Run(ctx, sd.name, o.concurrency, o.duration, sd.op)
			if r.Errors > 0 {
				return nil, fmt.Errorf("%s: %d errors", sd.name, r.Errors)
			}
			runs[sd.name] = append(runs[sd.name], r.RPS)
		}
	}
	out := map[string]float64{}
	for k, v := range runs {
		out[k] = median(v)
	}
	return out, nil
}

// jsConfig writes the dwk.json of a local-mode dwk serve with the Go
// reference workers and the JavaScript project at /js/.
func jsConfig(dir, app, idle string) (string, error) {
	c := map[string]any{
		"storage": map[string]any{"mode": "local", "data_dir": filepath.Join(dir, "data")},
		"listen":  map[string]any{"public": "127.0.0.1:0"},
		"objects": map[string]any{"idle_timeout": idle},
		"workers": []any{
			map[string]any{"name": "plain", "routes": []string{"/go/hello"}},
			map[string]any{"name": "counter", "routes": []string{"/counter/"}, "bindings": map[string]any{"objects": map[string]string{"COUNTER": "Counter"}}},
			map[string]any{"name": "chat", "routes": []string{"/chat/"}, "bindings": map[string]any{
				"d1": map[string]string{"DB": "chat"}, "r2": map[string]string{"FILES": "chat-files"},
				"queues": map[string]string{"NOTIFY": "chat-notify"}, "objects": map[string]string{"ROOMS": "ChatRoom"},
			}, "consumers": []any{map[string]string{"queue": "chat-notify"}}},
			map[string]any{"project": app, "routes": []string{"/js/"}},
		},
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, "dwk.json")
	return p, os.WriteFile(p, b, 0o644)
}

// jsCentral runs BenchmarkJSCentral, which starts a one-replica fleet
// with the fleet test harness.
func jsCentral(ctx context.Context, o options) (map[string]float64, error) {
	bin, err := filepath.Abs(o.dwk)
	if err != nil {
		return nil, err
	}
	os.Setenv("DWK_BIN", bin)
	os.Setenv("DWKBENCH_DURATION", o.duration.String())
	os.Setenv("DWKBENCH_CONCURRENCY", fmt.Sprint(o.concurrency))
	const name = "BenchmarkJSCentral"
	res, err := runGoBench(ctx, "./test/bench/dwkbench", []string{name}, "1x")
	if err != nil {
		return nil, err
	}
	return res[name].Extra, nil
}

// installBig runs npm ci in the 300 KB project when its packages are not
// there.
func installBig(ctx context.Context, dir string) error {
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err == nil {
		return nil
	}
	cmd := exec.CommandContext(ctx, "npm", "ci", "--silent", "--no-audit", "--no-fund")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci in %s: %v\n%s", dir, err, out)
	}
	return nil
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func fmtMs(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }

func kib(b float64) string { return fmt.Sprintf("%.1f KiB", b/1024) }

func mibText(b float64) string { return fmt.Sprintf("%.1f MiB", b/(1<<20)) }
