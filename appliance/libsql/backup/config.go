package backup

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/process/s3client"
)

// Config says where the backup goes and how often. The zero value of a
// field means its default; an empty Bucket disables the backup.
type Config struct {
	// Endpoint is the S3 service's base URL, such as
	// https://s3.eu-central-1.amazonaws.com or http://127.0.0.1:7070.
	// Default: AWS's endpoint for Region.
	Endpoint string `json:"endpoint"`
	// Bucket is the S3 bucket. Empty disables the backup. Default: "".
	Bucket string `json:"bucket"`
	// Prefix is put in front of every key, so that one bucket holds the
	// backups of many servers; a "/" is added when missing. Default: ""
	// (the whole bucket).
	Prefix string `json:"prefix"`
	// Region to sign requests for. Default: us-east-1.
	Region string `json:"region"`
	// AccessKey and SecretKey are static credentials. Leave both empty to
	// use the AWS default credential chain (environment, shared files,
	// instance role). Default: "".
	AccessKey string `json:"access_key"`
	SecretKey string `json:"secret_key"`
	// PathStyle addresses the bucket as the first path segment, as most
	// self-hosted stores need. Default: false.
	PathStyle bool `json:"path_style"`
	// Lag is the longest a commit waits before it is shipped while S3
	// answers: changes are collected every Lag/4 and sent at once.
	// Default: 1s.
	Lag time.Duration `json:"lag"`
	// SnapshotInterval is how often a namespace that changes starts a new
	// generation with a fresh snapshot, which bounds the WAL segments a
	// restore replays. Idle namespaces keep their generation. Default: 24h.
	SnapshotInterval time.Duration `json:"snapshot_interval"`
	// Retention is how far back a point-in-time restore can go: older
	// generations, and namespaces deleted longer ago, are removed from
	// the bucket. The latest generation of a live namespace is always
	// kept. Default: 168h (7 days).
	Retention time.Duration `json:"retention"`
	// Timeout bounds every call to S3, retries included. Default: 30s.
	Timeout time.Duration `json:"timeout"`
}

// Defaults of Config.
const (
	DefaultLag              = time.Second
	DefaultSnapshotInterval = 24 * time.Hour
	DefaultRetention        = 7 * 24 * time.Hour
	DefaultTimeout          = 30 * time.Second
	DefaultRegion           = config.DefaultRegion
)

// Enabled reports whether c asks for a backup.
func (c Config) Enabled() bool { return c.Bucket != "" }

// WithDefaults returns c with every zero field set to its default and the
// prefix ending in "/".
func (c Config) WithDefaults() Config {
	if c.Region == "" {
		c.Region = DefaultRegion
	}
	if c.Lag == 0 {
		c.Lag = DefaultLag
	}
	if c.SnapshotInterval == 0 {
		c.SnapshotInterval = DefaultSnapshotInterval
	}
	if c.Retention == 0 {
		c.Retention = DefaultRetention
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Prefix != "" && !strings.HasSuffix(c.Prefix, "/") {
		c.Prefix += "/"
	}
	return c
}

// Validate reports every problem with c (after defaults) at once.
func (c Config) Validate() error {
	c = c.WithDefaults()
	var errs []error
	if c.Bucket == "" {
		errs = append(errs, errors.New("backup bucket is required"))
	}
	if err := s3client.CheckEndpoint(c.Endpoint); err != nil {
		errs = append(errs, fmt.Errorf("backup %w", err))
	}
	if (c.AccessKey == "") != (c.SecretKey == "") {
		errs = append(errs, errors.New("backup: give both the S3 access key and the secret key, or neither (for the AWS credential chain)"))
	}
	if strings.HasPrefix(c.Prefix, "/") {
		errs = append(errs, fmt.Errorf("backup prefix %q must not start with /", c.Prefix))
	}
	if c.Lag < 10*time.Millisecond {
		errs = append(errs, fmt.Errorf("backup lag must be at least 10ms, got %s", c.Lag))
	}
	if c.SnapshotInterval < time.Second {
		errs = append(errs, fmt.Errorf("backup snapshot interval must be at least 1s, got %s", c.SnapshotInterval))
	}
	if c.Retention < c.SnapshotInterval {
		errs = append(errs, fmt.Errorf("backup retention (%s) must be at least the snapshot interval (%s)", c.Retention, c.SnapshotInterval))
	}
	if c.Timeout < 0 {
		errs = append(errs, errors.New("backup timeout must not be negative"))
	}
	return errors.Join(errs...)
}
