// Package s3client builds every S3 client of dwk: the R2 binding's
// (bindings/r2/r2central, which central mode's stores share) and the
// libSQL server's backup (libsql/backup) connect through New, with the same
// retries, checksums and connection pool.
package s3client

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/dwk/fleet/appliance/config"
)

// DefaultMaxAttempts is the default of Config.MaxAttempts.
const DefaultMaxAttempts = 3

// maxIdleConnsPerHost keeps enough connections to the one store host for
// the concurrency of a busy replica; Go's default of 2 would redial.
const maxIdleConnsPerHost = 64

// Config says how to reach an S3-compatible store.
type Config struct {
	// Endpoint is the store's base URL, such as http://127.0.0.1:7070.
	// Default: AWS's endpoint for Region.
	Endpoint string
	// Region to sign requests for. Default: config.DefaultRegion.
	Region string
	// AccessKey and SecretKey are static credentials. Leave both empty to
	// use the AWS default credential chain (environment, shared files,
	// instance role).
	AccessKey, SecretKey string
	// PathStyle addresses the bucket as the first path segment instead of
	// a host name, as most self-hosted stores need.
	PathStyle bool
	// MaxAttempts is how often an idempotent request is tried before its
	// error is returned. Default: DefaultMaxAttempts.
	MaxAttempts int
}

// New returns an S3 client for cfg's store. With static credentials
// nothing is read from the environment; with none, the AWS default
// credential chain is loaded, which reads the environment and the shared
// AWS files.
func New(ctx context.Context, cfg Config) (*s3.Client, error) {
	if cfg.Region == "" {
		cfg.Region = config.DefaultRegion
	}
	if cfg.MaxAttempts == 0 {
		cfg.MaxAttempts = DefaultMaxAttempts
	}
	configure := func(o *s3.Options) {
		o.Region = cfg.Region
		o.UsePathStyle = cfg.PathStyle
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
		}
		// Integrity comes from Content-MD5 (which every S3-compatible store
		// checks); the SDK's default CRC32 trailers are not understood by
		// all of them.
		o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
		o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
		o.Retryer = newRetryer(cfg.MaxAttempts)
		o.HTTPClient = awshttp.NewBuildableClient().WithTransportOptions(func(tr *http.Transport) {
			tr.MaxIdleConnsPerHost = maxIdleConnsPerHost
		})
	}
	if cfg.AccessKey != "" {
		o := s3.Options{Credentials: credentials.NewStaticCredentialsProvider(cfg.AccessKey, cfg.SecretKey, "")}
		configure(&o)
		return s3.New(o), nil
	}
	awsCfg, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(cfg.Region))
	if err != nil {
		return nil, fmt.Errorf("s3client: load AWS credentials: %w", err)
	}
	return s3.NewFromConfig(awsCfg, configure), nil
}

// newRetryer is the SDK's standard retryer (exponential backoff with
// jitter on connection errors, 5xx and throttling) without its retry
// quota: after an outage the quota would stay drained and turn the next
// transient error into a failure. Calls are bounded by their deadline
// instead.
func newRetryer(attempts int) aws.Retryer {
	return retry.NewStandard(func(o *retry.StandardOptions) {
		o.MaxAttempts = attempts
		o.RateLimiter = ratelimit.None
	})
}

// CheckEndpoint reports what is wrong with an endpoint URL; "" (AWS's
// endpoint for the region) is fine.
func CheckEndpoint(endpoint string) error {
	if endpoint == "" {
		return nil
	}
	u, err := url.Parse(endpoint)
	switch {
	case err != nil:
		return fmt.Errorf("endpoint: %w", err)
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		return fmt.Errorf("endpoint %q: want an http or https URL with a host", endpoint)
	}
	return nil
}
