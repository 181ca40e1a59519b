package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/dwk/fleet/appliance/bindings/r2/r2central"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/namespaces"
	"github.com/dwk/fleet/appliance/fleet/probe"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/appliance/process/buildinfo"
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
	cfg, err := probeConfig(ctx, c)
	if err != nil {
		fmt.Fprintln(stderr, "dwk diagnose:", err)
		return 1
	}
	cfg.Diagnose, cfg.MaxClockSkew = true, *maxSkew
	report, err := probe.Run(ctx, cfg)
	if len(report.Results) == 0 {
		fmt.Fprintln(stderr, "dwk diagnose:", err)
		return 1
	}
	report.WriteTo(stdout)
	fmt.Fprintf(stdout, "\nlibSQL round trip %s, bucket %s, CAS commit %s, clock skew %s (local minus server)\n",
		report.LibSQLLatency, report.BucketLatency, report.CASLatency, report.ClockSkew)
	if fs := report.Failures(); len(fs) > 0 {
		for _, f := range fs {
			fmt.Fprintln(stderr, "dwk diagnose:", f)
		}
		return 1
	}
	return 0
}

// probeConfig builds the probes' clients from c the way dwk serve does.
func probeConfig(ctx context.Context, c *config.Config) (probe.Config, error) {
	ls, sc := c.Storage.LibSQL, c.Storage.S3
	token, _ := ls.AuthToken.Resolve()
	adminKey, _ := ls.AdminToken.Resolve()
	client, err := hranaclient.New(hranaclient.Config{URL: ls.URL, AuthToken: token, Namespace: namespaces.Coord(c.Fleet.Name)})
	if err != nil {
		return probe.Config{}, fmt.Errorf("storage.libsql: %w", err)
	}
	var admin *libsqladmin.Client
	if ls.AdminURL != "" {
		if admin, err = libsqladmin.New(libsqladmin.Config{URL: ls.AdminURL, AdminKey: adminKey}); err != nil {
			return probe.Config{}, fmt.Errorf("storage.libsql.admin_url: %w", err)
		}
	}
	ak, _ := sc.AccessKey.Resolve()
	sk, _ := sc.SecretKey.Resolve()
	s3c, err := r2central.NewClient(ctx, r2central.Config{Endpoint: sc.Endpoint, Region: sc.Region, Bucket: sc.Bucket, AccessKey: ak, SecretKey: sk, PathStyle: sc.PathStyle})
	if err != nil {
		return probe.Config{}, fmt.Errorf("storage.s3: %w", err)
	}
	return probe.Config{
		Fleet: c.Fleet.Name, Version: buildinfo.Version(),
		LibSQL: client, LibSQLURL: ls.URL, Admin: admin, AdminURL: ls.AdminURL,
		S3: s3c, Bucket: sc.Bucket, S3Endpoint: sc.Endpoint,
	}, nil
}
