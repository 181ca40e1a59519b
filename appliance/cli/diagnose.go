package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/dwk/fleet/appliance/central"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/probe"
	"github.com/dwk/fleet/appliance/libsql"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
)

func init() {
	Register(Command{Name: "diagnose", Short: "check a central-mode fleet's stores: CAS, clocks, bucket, latency", Run: runDiagnose})
}

// runDiagnose runs every start-up probe of a central-mode replica, even
// after a failure, plus a scratch compare-and-set, prints the report and
// exits 1 if any check failed.
func runDiagnose(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("diagnose", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", "", "path to a central-mode dwk.json")
	maxSkew := fs.Duration("max-clock-skew", probe.DefaultMaxClockSkew, "largest accepted difference between this host's clock and the libSQL server's")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *path == "" {
		fmt.Fprintln(stderr, "dwk diagnose: --config is required")
		return 2
	}
	c, err := loadConfig(*path)
	if err != nil {
		fmt.Fprintln(stderr, "dwk diagnose:", err)
		return 1
	}
	if c.Storage.Mode != config.ModeCentral {
		fmt.Fprintln(stderr, `dwk diagnose: storage.mode must be "central"; local mode has no central stores`)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	clients, err := central.Dial(ctx, c, central.Options{})
	if err != nil {
		fmt.Fprintln(stderr, "dwk diagnose:", err)
		return 1
	}
	defer clients.Close()
	cfg := clients.Probe()
	cfg.Diagnose, cfg.MaxClockSkew = true, *maxSkew
	report, err := probe.Run(ctx, cfg)
	if len(report.Results) == 0 {
		fmt.Fprintln(stderr, "dwk diagnose:", err)
		return 1
	}
	report.WriteTo(stdout)
	fmt.Fprintf(stdout, "\nlibSQL round trip %s, bucket %s, CAS commit %s, clock skew %s (local minus server)\n",
		report.LibSQLLatency, report.BucketLatency, report.CASLatency, report.ClockSkew)
	if clients.Admin != nil {
		fmt.Fprintln(stdout, libsqlBackupLine(ctx, clients.Admin, time.Now()))
	}
	if fs := report.Failures(); len(fs) > 0 {
		for _, f := range fs {
			fmt.Fprintln(stderr, "dwk diagnose:", f)
		}
		return 1
	}
	return 0
}

// libsqlBackupLine reports the libSQL server's continuous backup from its
// metrics: lag, pending namespaces and the last snapshot. It is
// informational: sqld, or a dwk libsql without a backup, says so.
func libsqlBackupLine(ctx context.Context, admin *libsqladmin.Client, now time.Time) string {
	m, err := admin.Metrics(ctx)
	if err != nil {
		return fmt.Sprintf("libSQL backup: unknown (no dwk libsql metrics at the admin URL: %v)", err)
	}
	if m[libsql.MetricBackupEnabled] != 1 {
		return "libSQL backup: off (start dwk libsql with --backup-s3-bucket; see docs/backups.md)"
	}
	snap := "none since the server started"
	if t := m[libsql.MetricBackupLastSnapshot]; t > 0 {
		at := time.Unix(0, int64(t*1e9))
		snap = fmt.Sprintf("%s (%s ago)", at.UTC().Format(time.RFC3339), now.Sub(at).Round(time.Second))
	}
	return fmt.Sprintf("libSQL backup: lag %s, %d namespaces pending, %d failed uploads, last snapshot %s",
		time.Duration(m[libsql.MetricBackupLag]*float64(time.Second)).Round(time.Millisecond),
		int(m[libsql.MetricBackupPending]), int(m[libsql.MetricBackupFailures]), snap)
}
