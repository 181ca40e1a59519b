package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/dwk/fleet/appliance/central"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/marker"
	"github.com/dwk/fleet/appliance/fleet/markerstore"
	"github.com/dwk/fleet/appliance/process/buildinfo"
)

func init() {
	Register(Command{Name: "provision", Short: "create a central-mode fleet's stores and mode marker (what terraform apply does)", Run: runProvision})
}

// runProvision prepares the central stores named by a config for a new
// fleet: the coordination database (through the admin API), the bucket (with
// --create-bucket) and the mode marker in both. It is idempotent: an
// existing marker of the same fleet is kept.
func runProvision(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("provision", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", "", "path to a central-mode dwk.json")
	createBucket := fs.Bool("create-bucket", false, "create storage.s3.bucket when it does not exist")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *path == "" {
		fmt.Fprintln(stderr, "dwk provision: --config is required")
		return 2
	}
	c, err := loadConfig(*path)
	if err != nil {
		fmt.Fprintln(stderr, "dwk provision:", err)
		return 1
	}
	if c.Storage.Mode != config.ModeCentral {
		fmt.Fprintln(stderr, `dwk provision: storage.mode must be "central"; local mode needs no provisioning`)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := provision(ctx, c, *createBucket, stdout); err != nil {
		fmt.Fprintln(stderr, "dwk provision:", err)
		return 1
	}
	return 0
}

func provision(ctx context.Context, c *config.Config, createBucket bool, out io.Writer) error {
	fleet := c.Fleet.Name
	clients, err := central.Dial(ctx, c, central.Options{})
	if err != nil {
		return err
	}
	defer clients.Close()
	ns := clients.Coord.Namespace()
	if clients.Admin != nil {
		if err := clients.Admin.Create(ctx, ns); err != nil {
			return fmt.Errorf("create coordination database %s: %w", ns, err)
		}
		fmt.Fprintf(out, "coordination database %s: ok\n", ns)
	}
	st, err := coord.Open(ctx, clients.Coord, coord.Options{SweepInterval: -1})
	if err != nil {
		return fmt.Errorf("open coordination database %s: %w", ns, err)
	}
	defer st.Close(context.Background())

	s3c, bucket := clients.S3, clients.S3Config.Bucket
	if err := markerstore.BucketExists(ctx, s3c, bucket); err != nil {
		if !createBucket {
			return fmt.Errorf("%w (run with --create-bucket to create it)", err)
		}
		if _, err := s3c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(bucket)}); err != nil {
			return fmt.Errorf("create bucket %s: %w", bucket, err)
		}
		fmt.Fprintf(out, "bucket %s: created\n", bucket)
	}

	copies, err := markerstore.Read(ctx, st, s3c, bucket)
	if err == nil && copies.InSync() && copies.Coord.Marker.Fleet == fleet {
		fmt.Fprintf(out, "mode marker for fleet %q: already in place (id %s)\n", fleet, copies.Coord.Marker.ID)
		return nil
	}
	if old, err := markerstore.ReadCoord(ctx, st); err == nil && old.Fleet != fleet {
		return fmt.Errorf("the coordination database already belongs to fleet %q; refusing to overwrite it", old.Fleet)
	} else if err != nil && !errors.Is(err, marker.ErrMissing) {
		return err
	}
	m := marker.New(fleet, buildinfo.SchemaVersion, "dwk provision "+buildinfo.Version())
	if err := markerstore.Write(ctx, st, s3c, bucket, m); err != nil {
		return err
	}
	fmt.Fprintf(out, "mode marker for fleet %q: written (id %s)\n", fleet, m.ID)
	return nil
}
