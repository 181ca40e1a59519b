package r2central

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/dwk/fleet/appliance/process/s3client"
)

// NewClient returns an S3 client for cfg's store, built by s3client.New
// once cfg is valid. Bucket and KeyPrefix are not used, so one client can
// serve every Bucket of a fleet (pass it to New).
func NewClient(ctx context.Context, cfg Config) (*s3.Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	return s3client.New(ctx, s3client.Config{
		Endpoint: cfg.Endpoint, Region: cfg.Region, AccessKey: cfg.AccessKey, SecretKey: cfg.SecretKey,
		PathStyle: cfg.PathStyle, MaxAttempts: cfg.MaxAttempts,
	})
}

// noRetry is a per-call option that makes one attempt only.
func noRetry(o *s3.Options) { o.RetryMaxAttempts = 1 }
