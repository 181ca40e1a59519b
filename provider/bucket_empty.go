package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
)

// bucketAPI is the part of the S3 API that emptying a bucket needs.
type bucketAPI interface {
	s3.ListObjectsV2APIClient
	s3.ListMultipartUploadsAPIClient
	ListObjectVersions(ctx context.Context, in *s3.ListObjectVersionsInput, opts ...func(*s3.Options)) (*s3.ListObjectVersionsOutput, error)
	DeleteObjects(ctx context.Context, in *s3.DeleteObjectsInput, opts ...func(*s3.Options)) (*s3.DeleteObjectsOutput, error)
	AbortMultipartUpload(ctx context.Context, in *s3.AbortMultipartUploadInput, opts ...func(*s3.Options)) (*s3.AbortMultipartUploadOutput, error)
}

var _ bucketAPI = (*s3.Client)(nil)

// emptyBucket aborts every unfinished multipart upload, deletes every
// object and then every object version and delete marker (on stores
// without versioning support that last step is skipped).
func emptyBucket(ctx context.Context, c bucketAPI, bucket string) error {
	uploads := s3.NewListMultipartUploadsPaginator(c, &s3.ListMultipartUploadsInput{Bucket: aws.String(bucket)})
	for uploads.HasMorePages() {
		page, err := uploads.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("list multipart uploads: %w", err)
		}
		for _, u := range page.Uploads {
			if _, err := c.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{Bucket: aws.String(bucket), Key: u.Key, UploadId: u.UploadId}); err != nil {
				return fmt.Errorf("abort multipart upload of %s: %w", aws.ToString(u.Key), err)
			}
		}
	}
	objects := s3.NewListObjectsV2Paginator(c, &s3.ListObjectsV2Input{Bucket: aws.String(bucket)})
	for objects.HasMorePages() {
		page, err := objects.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("list objects: %w", err)
		}
		ids := make([]s3types.ObjectIdentifier, 0, len(page.Contents))
		for _, o := range page.Contents {
			ids = append(ids, s3types.ObjectIdentifier{Key: o.Key})
		}
		if err := deleteObjects(ctx, c, bucket, ids); err != nil {
			return err
		}
	}
	var keyMarker, versionMarker *string
	for {
		page, err := c.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: aws.String(bucket), KeyMarker: keyMarker, VersionIdMarker: versionMarker})
		if err != nil {
			var ae smithy.APIError
			if errors.As(err, &ae) && (ae.ErrorCode() == "NotImplemented" || ae.ErrorCode() == "MethodNotAllowed") {
				return nil
			}
			return fmt.Errorf("list object versions: %w", err)
		}
		var ids []s3types.ObjectIdentifier
		for _, v := range page.Versions {
			ids = append(ids, s3types.ObjectIdentifier{Key: v.Key, VersionId: v.VersionId})
		}
		for _, m := range page.DeleteMarkers {
			ids = append(ids, s3types.ObjectIdentifier{Key: m.Key, VersionId: m.VersionId})
		}
		if err := deleteObjects(ctx, c, bucket, ids); err != nil {
			return err
		}
		if !aws.ToBool(page.IsTruncated) {
			return nil
		}
		keyMarker, versionMarker = page.NextKeyMarker, page.NextVersionIdMarker
	}
}

// deleteObjects deletes ids in batches of 1000 (the API's limit).
func deleteObjects(ctx context.Context, c bucketAPI, bucket string, ids []s3types.ObjectIdentifier) error {
	for len(ids) > 0 {
		n := min(len(ids), 1000)
		out, err := c.DeleteObjects(ctx, &s3.DeleteObjectsInput{
			Bucket: aws.String(bucket),
			Delete: &s3types.Delete{Objects: ids[:n], Quiet: aws.Bool(true)},
		})
		if err != nil {
			return fmt.Errorf("delete objects: %w", err)
		}
		if len(out.Errors) > 0 {
			e := out.Errors[0]
			return fmt.Errorf("delete %s: %s: %s (and %d more)", aws.ToString(e.Key), aws.ToString(e.Code), aws.ToString(e.Message), len(out.Errors)-1)
		}
		ids = ids[n:]
	}
	return nil
}
