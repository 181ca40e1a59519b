package backup

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/dwk/fleet/appliance/process/s3client"
)

// S3API is the part of the S3 client the backup uses.
type S3API interface {
	PutObject(context.Context, *s3.PutObjectInput, ...func(*s3.Options)) (*s3.PutObjectOutput, error)
	GetObject(context.Context, *s3.GetObjectInput, ...func(*s3.Options)) (*s3.GetObjectOutput, error)
	ListObjectsV2(context.Context, *s3.ListObjectsV2Input, ...func(*s3.Options)) (*s3.ListObjectsV2Output, error)
	DeleteObjects(context.Context, *s3.DeleteObjectsInput, ...func(*s3.Options)) (*s3.DeleteObjectsOutput, error)
}

var _ S3API = (*s3.Client)(nil)

// NewClient returns an S3 client for c's store, built as every other S3
// client of dwk is (s3client.New).
func NewClient(ctx context.Context, c Config) (*s3.Client, error) {
	c = c.WithDefaults()
	return s3client.New(ctx, s3client.Config{
		Endpoint: c.Endpoint, Region: c.Region, AccessKey: c.AccessKey, SecretKey: c.SecretKey, PathStyle: c.PathStyle,
	})
}

// store reads and writes the objects under the prefix.
type store struct {
	api     S3API
	bucket  string
	prefix  string
	timeout time.Duration
}

func newStore(api S3API, c Config) *store {
	c = c.WithDefaults()
	return &store{api: api, bucket: c.Bucket, prefix: c.Prefix, timeout: c.Timeout}
}

func (s *store) put(ctx context.Context, key string, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	sum := md5.Sum(body)
	_, err := s.api.PutObject(ctx, &s3.PutObjectInput{
		Bucket: aws.String(s.bucket), Key: aws.String(s.prefix + key),
		Body: bytes.NewReader(body), ContentLength: aws.Int64(int64(len(body))),
		ContentMD5: aws.String(base64.StdEncoding.EncodeToString(sum[:])),
	})
	if err != nil {
		return fmt.Errorf("put s3://%s/%s%s: %w", s.bucket, s.prefix, key, err)
	}
	return nil
}

func (s *store) get(ctx context.Context, key string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	out, err := s.api.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(s.prefix + key)})
	if err != nil {
		return nil, fmt.Errorf("get s3://%s/%s%s: %w", s.bucket, s.prefix, key, err)
	}
	defer out.Body.Close()
	b, err := io.ReadAll(out.Body)
	if err != nil {
		return nil, fmt.Errorf("get s3://%s/%s%s: %w", s.bucket, s.prefix, key, err)
	}
	return b, nil
}

// list returns the keys under p (relative to the prefix) and, with a
// delimiter, the common prefixes one level down.
func (s *store) list(ctx context.Context, p, delimiter string) (keys, dirs []string, err error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	in := &s3.ListObjectsV2Input{Bucket: aws.String(s.bucket), Prefix: aws.String(s.prefix + p)}
	if delimiter != "" {
		in.Delimiter = aws.String(delimiter)
	}
	pages := s3.NewListObjectsV2Paginator(s.api, in)
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("list s3://%s/%s%s: %w", s.bucket, s.prefix, p, err)
		}
		for _, o := range page.Contents {
			keys = append(keys, aws.ToString(o.Key)[len(s.prefix):])
		}
		for _, cp := range page.CommonPrefixes {
			dirs = append(dirs, aws.ToString(cp.Prefix)[len(s.prefix):])
		}
	}
	return keys, dirs, nil
}

// remove deletes keys, in batches of S3's maximum of 1000.
func (s *store) remove(ctx context.Context, keys []string) error {
	for len(keys) > 0 {
		n := min(len(keys), 1000)
		ids := make([]types.ObjectIdentifier, n)
		for i, k := range keys[:n] {
			ids[i] = types.ObjectIdentifier{Key: aws.String(s.prefix + k)}
		}
		cctx, cancel := context.WithTimeout(ctx, s.timeout)
		out, err := s.api.DeleteObjects(cctx, &s3.DeleteObjectsInput{
			Bucket: aws.String(s.bucket), Delete: &types.Delete{Objects: ids, Quiet: aws.Bool(true)},
		})
		cancel()
		if err != nil {
			return fmt.Errorf("delete from s3://%s/%s: %w", s.bucket, s.prefix, err)
		}
		var errs []error
		for _, e := range out.Errors {
			errs = append(errs, fmt.Errorf("delete %s: %s", aws.ToString(e.Key), aws.ToString(e.Message)))
		}
		if err := errors.Join(errs...); err != nil {
			return err
		}
		keys = keys[n:]
	}
	return nil
}
