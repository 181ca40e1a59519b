package r2central

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dwk/fleet/appliance/bindings/r2"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/process/s3client"
)

// Defaults of Config.
const (
	DefaultRegion      = config.DefaultRegion
	DefaultTimeout     = 30 * time.Second
	DefaultMaxAttempts = s3client.DefaultMaxAttempts
	// DefaultVerifiedReadMax is the default of Config.VerifiedReadMax.
	DefaultVerifiedReadMax = 1 << 20
)

// Config says where a Bucket's objects live and how to reach them. The
// appliance builds it from the storage.s3 section of dwk.json and the R2
// binding's name.
type Config struct {
	// Endpoint is the store's base URL, such as http://127.0.0.1:7070.
	// Default: AWS's endpoint for Region.
	Endpoint string
	// Region to sign requests for. Default: "us-east-1".
	Region string
	// Bucket is the S3 bucket. Required.
	Bucket string
	// AccessKey and SecretKey are static credentials. Leave both empty to
	// use the AWS default credential chain (environment, shared files,
	// instance role).
	AccessKey, SecretKey string
	// PathStyle addresses the bucket as the first path segment instead of
	// a host name, as most self-hosted stores need. Default: false.
	PathStyle bool
	// KeyPrefix is put in front of every key, e.g. "r2/uploads/", so that
	// one S3 bucket holds many R2 buckets. S3 limits whole keys to 1024
	// bytes, so R2 keys here may be at most 1024 - len(KeyPrefix) bytes.
	// Default: "" (the whole S3 bucket).
	KeyPrefix string
	// Timeout bounds every call to the store, retries included. For Get it
	// bounds the wait for the response headers. Default: 30s.
	Timeout time.Duration
	// MaxAttempts is how often an idempotent request is tried before its
	// error is returned. Default: 3.
	MaxAttempts int
	// VerifiedReadMax is the largest body a whole-object Get reads before
	// it returns, to check it against the MD5 its Put recorded. A body that
	// does not match was torn by a concurrent overwrite on a store whose
	// reads are not atomic (versitygw's posix backend reads metadata and
	// body separately) and is fetched again. Larger bodies, ranged reads
	// and multipart objects stream unchecked. Negative: check none.
	// Default: 1 MiB.
	VerifiedReadMax int64
	// SpoolDir is where Put and UploadPart keep bodies larger than 8 MiB
	// while they are sent. Default: os.TempDir().
	SpoolDir string
}

// withDefaults returns c with its zero fields set to their defaults.
func (c Config) withDefaults() Config {
	if c.Region == "" {
		c.Region = DefaultRegion
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxAttempts == 0 {
		c.MaxAttempts = DefaultMaxAttempts
	}
	if c.VerifiedReadMax == 0 {
		c.VerifiedReadMax = DefaultVerifiedReadMax
	}
	return c
}

// Validate reports every problem of c, joined.
func (c Config) Validate() error {
	var errs []error
	if err := s3client.CheckEndpoint(c.Endpoint); err != nil {
		errs = append(errs, err)
	}
	if c.Bucket == "" {
		errs = append(errs, errors.New("bucket is required"))
	}
	if (c.AccessKey == "") != (c.SecretKey == "") {
		errs = append(errs, errors.New("set both access key and secret key, or neither"))
	}
	if !utf8.ValidString(c.KeyPrefix) || len(c.KeyPrefix) >= r2.MaxKeyBytes {
		errs = append(errs, fmt.Errorf("key prefix %q: want UTF-8 shorter than %d bytes", c.KeyPrefix, r2.MaxKeyBytes))
	}
	if strings.HasPrefix(c.KeyPrefix, "/") {
		errs = append(errs, fmt.Errorf("key prefix %q must not start with /", c.KeyPrefix))
	}
	if c.Timeout < 0 {
		errs = append(errs, fmt.Errorf("timeout %v is negative", c.Timeout))
	}
	if c.MaxAttempts < 0 {
		errs = append(errs, fmt.Errorf("max attempts %d is negative", c.MaxAttempts))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("r2central config: %w", err)
	}
	return nil
}
