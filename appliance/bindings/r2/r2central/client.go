package r2central

import (
	"context"
	"fmt"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// maxIdleConnsPerHost keeps enough connections to the one store host for
// the concurrency of a busy replica; Go's default of 2 would redial.
const maxIdleConnsPerHost = 64

// NewClient returns an S3 client for cfg's store. Bucket and KeyPrefix are
// not used, so one client can serve every Bucket of a fleet (pass it to
// New). With static credentials nothing is read from the environment; with
// none, the AWS default credential chain is loaded, which reads the
// environment and the shared AWS files.
func NewClient(ctx context.Context, cfg Config) (*s3.Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
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
		return nil, fmt.Errorf("r2central: load AWS credentials: %w", err)
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

// noRetry is a per-call option that makes one attempt only.
func noRetry(o *s3.Options) { o.RetryMaxAttempts = 1 }
