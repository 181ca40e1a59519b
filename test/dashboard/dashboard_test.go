package dashboard

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/test/fleettest"
)

// dashboardFile is the dashboard under test, from this package's directory.
const dashboardFile = "../../docs/grafana/dwk-fleet.json"

// dashboard is the part of a Grafana dashboard the test reads.
type dashboard struct {
	Panels     []panel `json:"panels"`
	Templating struct {
		List []struct {
			Name       string          `json:"name"`
			Type       string          `json:"type"`
			Query      json.RawMessage `json:"query"`
			Definition string          `json:"definition"`
		} `json:"list"`
	} `json:"templating"`
}

type panel struct {
	ID         int         `json:"id"`
	Type       string      `json:"type"`
	Title      string      `json:"title"`
	Datasource *datasource `json:"datasource"`
	Targets    []struct {
		Datasource *datasource `json:"datasource"`
		Expr       string      `json:"expr"`
	} `json:"targets"`
	Panels []panel `json:"panels"` // a collapsed row's panels
}

type datasource struct {
	Type string `json:"type"`
	UID  string `json:"uid"`
}

// loadDashboard parses the dashboard and checks its shape: the datasource
// and member variables, and a Prometheus datasource and at least one
// query on every panel. It returns every panel's queries by panel title.
func loadDashboard(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%s is not valid JSON: %v", dashboardFile, err)
	}
	vars := map[string]string{}
	for _, v := range d.Templating.List {
		var q string
		if json.Unmarshal(v.Query, &q) != nil {
			var obj struct{ Query string }
			json.Unmarshal(v.Query, &obj)
			q = obj.Query
		}
		vars[v.Name] = v.Type + " " + q
	}
	if got := vars["datasource"]; got != "datasource prometheus" {
		t.Errorf("variable datasource = %q, want a datasource variable of type prometheus", got)
	}
	if got := vars["member"]; got != "query label_values(dwk_http_requests_total, member)" {
		t.Errorf("variable member = %q, want a query of label_values(dwk_http_requests_total, member)", got)
	}
	queries := map[string][]string{}
	var walk func([]panel)
	walk = func(ps []panel) {
		for _, p := range ps {
			if p.Type == "row" {
				walk(p.Panels)
				continue
			}
			name := fmt.Sprintf("panel %d %q", p.ID, p.Title)
			if p.Datasource == nil || p.Datasource.Type != "prometheus" || p.Datasource.UID != "${datasource}" {
				t.Errorf("%s: datasource %+v, want prometheus ${datasource}", name, p.Datasource)
			}
			if len(p.Targets) == 0 {
				t.Errorf("%s has no target", name)
			}
			for i, tg := range p.Targets {
				if tg.Datasource != nil && tg.Datasource.UID != "${datasource}" {
					t.Errorf("%s target %d: datasource %+v, want ${datasource}", name, i, tg.Datasource)
				}
				if strings.TrimSpace(tg.Expr) == "" {
					t.Errorf("%s target %d has no expr", name, i)
				}
				queries[name] = append(queries[name], tg.Expr)
			}
		}
	}
	walk(d.Panels)
	if len(queries) == 0 {
		t.Fatalf("%s has no panels", dashboardFile)
	}
	return queries
}

// TestDashboardShape checks the dashboard alone, without a fleet.
func TestDashboardShape(t *testing.T) {
	for panel, exprs := range loadDashboard(t) {
		for _, e := range exprs {
			if len(MetricNames(e)) == 0 {
				t.Errorf("%s: %s selects no metric", panel, e)
			}
			if u := UnknownCalls(e); len(u) > 0 {
				t.Errorf("%s: %s calls %q, no PromQL function", panel, e, u)
			}
		}
	}
}

// TestDashboardMetricsExported starts a one-replica central-mode fleet
// whose queue consumer has a dead-letter queue, sends it requests, and
// fails for every metric a panel queries that the replica's /metrics
// does not carry.
func TestDashboardMetricsExported(t *testing.T) {
	queries := loadDashboard(t)
	f := fleettest.Start(t, fleettest.Options{Replicas: 1, Edit: func(_ int, c *config.Config) {
		for i := range c.Workers {
			for j := range c.Workers[i].Consumers {
				c.Workers[i].Consumers[j].DeadLetterQueue = c.Workers[i].Consumers[j].Queue + "-dlq"
			}
		}
	}})
	r := f.Replicas[0]
	client := &http.Client{Timeout: 10 * time.Second}
	// Requests make the request counter and histogram series exist.
	for i := range 3 {
		resp, err := client.Post(fmt.Sprintf("%s/counter/dash%d/increment", r.Public, i), "", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	var missing []string
	check := func() bool {
		families := scrapeFamilies(t, client, r.Admin+"/metrics")
		missing = nil
		for panel, exprs := range queries {
			for _, e := range exprs {
				for _, name := range MetricNames(e) {
					if !exported(families, name) {
						missing = append(missing, fmt.Sprintf("%s (%s)", name, panel))
					}
				}
			}
		}
		return len(missing) == 0
	}
	// The request counters land when each response is written; give the
	// scrape a few seconds to see them.
	deadline := time.Now().Add(15 * time.Second)
	for !check() && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
	}
	slices.Sort(missing)
	for _, m := range slices.Compact(missing) {
		t.Errorf("the dashboard queries %s, which dwk serve does not export", m)
	}
}

// exported reports whether name is a family of the scrape, or a series of
// a histogram or summary family (_bucket, _sum, _count).
func exported(families map[string]string, name string) bool {
	if _, ok := families[name]; ok {
		return true
	}
	for _, suffix := range []string{"_bucket", "_sum", "_count"} {
		if base, ok := strings.CutSuffix(name, suffix); ok {
			switch families[base] {
			case "histogram":
				return true
			case "summary":
				return suffix != "_bucket"
			}
		}
	}
	return false
}

// scrapeFamilies returns the metric families of one scrape, by name, with
// their type, from the "# TYPE" lines. A family is listed only when it has
// at least one series.
func scrapeFamilies(t *testing.T, client *http.Client, url string) map[string]string {
	t.Helper()
	resp, err := client.Get(url)
	if err != nil {
		t.Fatalf("scrape %s: %v", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("scrape %s: %s", url, resp.Status)
	}
	out := map[string]string{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 4 && f[0] == "#" && f[1] == "TYPE" {
			out[f[2]] = f[3]
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("scrape %s: %v", url, err)
	}
	return out
}
