package dashboard

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/dwk/fleet/test/needtool"
)

// TestScrapeConfig runs promtool check config on the scrape example.
func TestScrapeConfig(t *testing.T) {
	promtool := needtool.LookPath(t, "promtool", "apt-get install -y prometheus (or scripts/tools.sh promtool)")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, promtool, "check", "config", "../../examples/prometheus/prometheus.yml").CombinedOutput()
	if err != nil {
		t.Fatalf("promtool check config examples/prometheus/prometheus.yml: %v\n%s", err, out)
	}
}
