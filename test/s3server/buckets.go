package s3server

import (
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// newClient returns an S3 client for the service with the root
// credentials. Its endpoint follows the gateway across restarts, since
// Restart keeps the address.
func (s *Server) newClient() *s3.Client {
	return s3.New(s3.Options{
		BaseEndpoint: aws.String(s.Endpoint),
		Region:       s.Region,
		UsePathStyle: s.PathStyle,
		Credentials:  credentials.NewStaticCredentialsProvider(s.AccessKey, s.SecretKey, ""),
		// Checksums only where S3 requires them, as every S3-compatible
		// server understands those.
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
	})
}

// createBucket creates bucket name.
func (s *Server) createBucket(name string) error {
	ctx, cancel := s.context()
	defer cancel()
	in := &s3.CreateBucketInput{Bucket: aws.String(name)}
	if s.Region != DefaultRegion {
		in.CreateBucketConfiguration = &types.CreateBucketConfiguration{
			LocationConstraint: types.BucketLocationConstraint(s.Region),
		}
	}
	if _, err := s.client.CreateBucket(ctx, in); err != nil {
		return fmt.Errorf("create bucket %s at %s: %w", name, s.Endpoint, err)
	}
	return nil
}

// removeBucket deletes every object and unfinished multipart upload in
// bucket name, then the bucket.
func (s *Server) removeBucket(name string) error {
	if err := s.emptyPrefix(name, ""); err != nil {
		return err
	}
	ctx, cancel := s.context()
	defer cancel()
	if _, err := s.client.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: aws.String(name)}); err != nil {
		return fmt.Errorf("delete bucket %s: %w", name, err)
	}
	return nil
}

// emptyPrefix deletes every object and aborts every multipart upload under
// prefix in bucket.
func (s *Server) emptyPrefix(bucket, prefix string) error {
	ctx, cancel := s.context()
	defer cancel()
	var errs []error
	uploads := s3.NewListMultipartUploadsPaginator(s.client, &s3.ListMultipartUploadsInput{
		Bucket: aws.String(bucket), Prefix: aws.String(prefix),
	})
	for uploads.HasMorePages() {
		page, err := uploads.NextPage(ctx)
		if err != nil {
			errs = append(errs, fmt.Errorf("list uploads in %s/%s: %w", bucket, prefix, err))
			break
		}
		for _, u := range page.Uploads {
			_, err := s.client.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{
				Bucket: aws.String(bucket), Key: u.Key, UploadId: u.UploadId,
			})
			if err != nil {
				errs = append(errs, fmt.Errorf("abort upload of %s/%s: %w", bucket, aws.ToString(u.Key), err))
			}
		}
	}
	objects := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{
		Bucket: aws.String(bucket), Prefix: aws.String(prefix),
	})
	for objects.HasMorePages() {
		page, err := objects.NextPage(ctx)
		if err != nil {
			errs = append(errs, fmt.Errorf("list %s/%s: %w", bucket, prefix, err))
			break
		}
		if len(page.Contents) == 0 {
			continue
		}
		ids := make([]types.ObjectIdentifier, len(page.Contents))
		for i, o := range page.Contents {
			ids[i] = types.ObjectIdentifier{Key: o.Key}
		}
		out, err := s.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{
			Bucket: aws.String(bucket),
			Delete: &types.Delete{Objects: ids, Quiet: aws.Bool(true)},
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("delete objects in %s/%s: %w", bucket, prefix, err))
			break
		}
		for _, e := range out.Errors {
			errs = append(errs, fmt.Errorf("delete %s/%s: %s", bucket, aws.ToString(e.Key), aws.ToString(e.Message)))
		}
	}
	return errors.Join(errs...)
}
