package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/dwk/fleet/appliance/bindings/r2/r2central"
	"github.com/dwk/fleet/appliance/migrate"
	"github.com/dwk/fleet/appliance/worker"
)

func init() {
	cf := group{
		name: "import cloudflare",
		about: "Import what a Cloudflare account exports into a local data directory (--local) or a fleet's stores. Durable Object\n" +
			"storage cannot be exported from Cloudflare; see docs/migrate.md.",
		subs: []subcommand{
			{"d1", "a `wrangler d1 export` file into a D1 database: DB --file FILE (dwk d1 execute)", runD1Execute},
			{"kv", "wrangler's KV bulk JSON into a namespace: FILE --binding B (dwk kv bulk put)", runKVBulkPut},
			{"r2", "an S3 bucket (R2's S3 API, or any other) into an R2 bucket", runImportR2},
		},
	}
	g := group{name: "import", about: "Import data exported from elsewhere.", subs: []subcommand{{"cloudflare", "d1, kv and r2 exports of a Cloudflare account", cf.run}}}
	Register(Command{Name: "import", Short: "import a Cloudflare account's exports: cloudflare d1|kv|r2", Run: g.run})
}

func runImportR2(args []string, stdout, stderr io.Writer) int {
	const name = "import cloudflare r2"
	fs := newFlagSet(name, "SOURCE_BUCKET --endpoint URL --to BUCKET [--local [--data-dir DIR]] [--config FILE]",
		"Copies every object of SOURCE_BUCKET on an S3 endpoint (Cloudflare R2's is https://<account id>.r2.cloudflarestorage.com)\n"+
			"into the R2 bucket --to, with its content type, HTTP headers and custom metadata, as dwk migrate copies a bucket: what\n"+
			"is there already, equal, is skipped, other content is refused unless --replace, and every object is verified.\n"+
			"The credentials come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (an R2 API token's), or AWS's other sources.", stderr)
	var sf storeFlags
	sf.register(fs)
	endpoint := fs.String("endpoint", "", "the S3 endpoint URL")
	region := fs.String("region", "auto", "the region requests are signed for (R2: auto)")
	pathStyle := fs.Bool("path-style", false, "address the bucket as the URL's first path segment (most self-hosted stores)")
	prefix := fs.String("prefix", "", "only the objects under this key prefix, which their keys lose")
	to := fs.String("to", "", "the R2 bucket to import into: its bucket_name (default: SOURCE_BUCKET)")
	replace := fs.Bool("replace", false, "overwrite objects the destination holds with other content")
	dryRun := fs.Bool("dry-run", false, "list what would be copied and copy nothing")
	pos, code := parseArgs(fs, args, 1, 1)
	if code >= 0 {
		return code
	}
	if *endpoint == "" {
		fmt.Fprintf(stderr, "dwk %s: --endpoint is required: the S3 endpoint that serves %s\n", name, pos[0])
		return 2
	}
	if *to == "" {
		*to = pos[0]
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg := r2central.Config{Endpoint: *endpoint, Region: *region, Bucket: pos[0], PathStyle: *pathStyle, KeyPrefix: *prefix}
	client, err := r2central.NewClient(ctx, cfg)
	if err != nil {
		return fail(stderr, name, err)
	}
	src, err := r2central.New(client, cfg, r2central.Options{})
	if err != nil {
		return fail(stderr, name, err)
	}
	t, err := sf.open(ctx, kindR2, stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	defer t.close()
	fmt.Fprintf(stderr, "Importing s3://%s/%s from %s into R2 bucket %s of %s\n", pos[0], *prefix, *endpoint, *to, t.where)
	stores := []migrate.Store{{Kind: migrate.KindR2, Name: *to}}
	results, err := migrate.Run(ctx, migrate.Side{Stores: bucketOnly{src}}, migrate.Side{Stores: t.st}, stores, migrate.Options{Replace: *replace, DryRun: *dryRun, Parallel: 8})
	writeMigrateTable(stdout, results, *dryRun)
	if err != nil {
		return fail(stderr, name, err)
	}
	return 0
}

// bucketOnly is a migration side that holds one bucket, under any name.
type bucketOnly struct{ b worker.R2Bucket }

func (s bucketOnly) R2(string) (worker.R2Bucket, error) { return s.b, nil }

func (bucketOnly) D1(string) (worker.D1Backend, error) { return nil, errBucketOnly }

func (bucketOnly) KV(string) (worker.KVNamespace, error) { return nil, errBucketOnly }

var errBucketOnly = errors.New("an S3 source holds one bucket")
