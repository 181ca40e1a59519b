package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/libsql"
	"github.com/dwk/fleet/appliance/libsql/backup"
)

// envBackupSecretKey holds the backup's S3 secret key, which is never a
// flag value (flags show in ps).
const envBackupSecretKey = "DWK_BACKUP_S3_SECRET_KEY"

// backupFlags registers the --backup-s3-* flags shared by dwk libsql and
// dwk libsql restore. The returned function, called after parsing, reads
// the secret key from --backup-s3-secret-key-file, else the environment,
// else takes preset (a config file's).
func backupFlags(fs *flag.FlagSet, c *backup.Config) func(preset string) error {
	fs.StringVar(&c.Endpoint, "backup-s3-endpoint", os.Getenv("DWK_BACKUP_S3_ENDPOINT"), "S3 endpoint URL of the continuous backup (default: AWS for the region); env DWK_BACKUP_S3_ENDPOINT")
	fs.StringVar(&c.Bucket, "backup-s3-bucket", os.Getenv("DWK_BACKUP_S3_BUCKET"), "S3 bucket of the continuous backup; the backup is off when empty; env DWK_BACKUP_S3_BUCKET")
	fs.StringVar(&c.Prefix, "backup-s3-prefix", os.Getenv("DWK_BACKUP_S3_PREFIX"), "key prefix of the backup in the bucket, e.g. libsql/prod/; env DWK_BACKUP_S3_PREFIX")
	fs.StringVar(&c.Region, "backup-s3-region", envOr("DWK_BACKUP_S3_REGION", backup.DefaultRegion), "S3 region to sign requests for; env DWK_BACKUP_S3_REGION")
	fs.StringVar(&c.AccessKey, "backup-s3-access-key", os.Getenv("DWK_BACKUP_S3_ACCESS_KEY"), "S3 access key id (the secret comes from --backup-s3-secret-key-file or env "+envBackupSecretKey+"); none uses the AWS credential chain; env DWK_BACKUP_S3_ACCESS_KEY")
	secretFile := fs.String("backup-s3-secret-key-file", "", "file holding the S3 secret key (instead of env "+envBackupSecretKey+")")
	fs.BoolVar(&c.PathStyle, "backup-s3-path-style", false, "address the bucket as a path segment, as most self-hosted S3 stores need")
	fs.DurationVar(&c.Lag, "backup-lag", backup.DefaultLag, "longest a commit waits before it is shipped to S3 (while S3 answers)")
	fs.DurationVar(&c.SnapshotInterval, "backup-snapshot-interval", backup.DefaultSnapshotInterval, "how often a namespace that changes starts a new generation with a fresh snapshot")
	fs.DurationVar(&c.Retention, "backup-retention", backup.DefaultRetention, "how far back point-in-time restore reaches; older generations are deleted from the bucket")
	return func(preset string) error {
		c.SecretKey = os.Getenv(envBackupSecretKey)
		if c.SecretKey == "" {
			c.SecretKey = preset
		}
		if *secretFile != "" {
			b, err := os.ReadFile(*secretFile)
			if err != nil {
				return fmt.Errorf("--backup-s3-secret-key-file: %w", err)
			}
			c.SecretKey = strings.TrimSpace(string(b))
		}
		if c.AccessKey != "" && c.SecretKey == "" {
			return fmt.Errorf("--backup-s3-access-key needs the secret key in $%s or a --backup-s3-secret-key-file", envBackupSecretKey)
		}
		return nil
	}
}

// libsqlRestoreMain is `dwk libsql restore`.
func libsqlRestoreMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dwk libsql restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: dwk libsql restore --to DIR [--at TIME] --backup-s3-bucket B [flags]\n\n"+
			"Rebuilds a dwk libsql data dir from its continuous backup in S3, as of now or of\n"+
			"--at (RFC 3339, e.g. 2026-01-02T15:04:05Z). See docs/backups.md.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	var cfg backup.Config
	finish := backupFlags(fs, &cfg)
	to := fs.String("to", "", "data dir to create (the --db-path of the server to start on it); must be empty or missing")
	at := fs.String("at", "", "restore the state as of this time (RFC 3339); default: the latest")
	force := fs.Bool("force", false, "delete what DIR holds before restoring into it")
	timeout := fs.Duration("timeout", time.Hour, "give up after this long")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "dwk libsql restore: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if *to == "" {
		fmt.Fprintln(stderr, "dwk libsql restore: --to is required")
		return 2
	}
	if err := finish(""); err != nil {
		fmt.Fprintln(stderr, "dwk libsql restore:", err)
		return 2
	}
	if cfg.Bucket == "" {
		fmt.Fprintln(stderr, "dwk libsql restore: --backup-s3-bucket is required (with the other --backup-s3-* flags the server was started with)")
		return 2
	}
	var when time.Time
	if *at != "" {
		t, err := time.Parse(time.RFC3339Nano, *at)
		if err != nil {
			fmt.Fprintf(stderr, "dwk libsql restore: --at: want RFC 3339 such as 2026-01-02T15:04:05Z: %v\n", err)
			return 2
		}
		when = t
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	got, err := libsql.Restore(ctx, cfg, *to, when, *force)
	if err != nil {
		fmt.Fprintln(stderr, "dwk libsql restore:", err)
		return 1
	}
	for _, r := range got {
		fmt.Fprintf(stdout, "restored %s: generation of %s, %d WAL segments, through %s\n",
			r.Namespace, r.Generation.UTC().Format(time.RFC3339), r.Segments, r.Through.UTC().Format(time.RFC3339Nano))
	}
	abs, _ := filepath.Abs(*to)
	fmt.Fprintf(stdout, "dwk libsql restore: %d namespaces restored into %s\n", len(got), abs)
	return 0
}
