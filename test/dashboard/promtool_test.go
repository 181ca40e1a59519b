package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/test/needtool"
)

// promtool returns the promtool binary, ending t through needtool when
// it is missing.
func promtool(t *testing.T) string {
	t.Helper()
	return needtool.LookPath(t, "promtool", "apt-get install -y prometheus (or scripts/tools.sh promtool)")
}

// runPromtool runs promtool and fails t with its output and legend
// (what the names in it stand for) when it fails.
func runPromtool(t *testing.T, bin, legend string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput(); err != nil {
		t.Fatalf("promtool %s: %v\n%s%s", strings.Join(args, " "), err, out, legend)
	}
}

// TestScrapeConfig runs promtool check config on the scrape example.
func TestScrapeConfig(t *testing.T) {
	runPromtool(t, promtool(t), "", "check", "config", "../../examples/prometheus/prometheus.yml")
}

// grafanaVars stand for the dashboard's variables, as Grafana
// substitutes them before a query reaches Prometheus.
var grafanaVars = strings.NewReplacer("$__rate_interval", "1m", "${member}", ".*", "$member", ".*")

// TestDashboardPromQLParses has Prometheus's own parser read every query:
// each becomes a recording rule, which promtool check rules parses.
func TestDashboardPromQLParses(t *testing.T) {
	bin := promtool(t)
	queries := loadDashboard(t)
	panels := make([]string, 0, len(queries))
	for p := range queries {
		panels = append(panels, p)
	}
	slices.Sort(panels)
	type rule struct {
		Record string `json:"record"`
		Expr   string `json:"expr"`
	}
	var rules []rule
	var legend strings.Builder
	for i, p := range panels {
		for j, e := range queries[p] {
			r := rule{Record: fmt.Sprintf("dashboard:panel%d_%d", i, j), Expr: grafanaVars.Replace(e)}
			rules = append(rules, r)
			fmt.Fprintf(&legend, "%s is target %d of %s\n", r.Record, j, p)
		}
	}
	// JSON is YAML: promtool reads the rules file as it is.
	b, err := json.Marshal(map[string]any{"groups": []any{map[string]any{"name": "dashboard", "rules": rules}}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rules.yml")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	runPromtool(t, bin, legend.String(), "check", "rules", path)
}
