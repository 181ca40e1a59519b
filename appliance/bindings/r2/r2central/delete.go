package r2central

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/dwk/fleet/appliance/bindings/r2"
)

// Delete implements worker.R2Bucket: one DeleteObject for one key, one
// DeleteObjects for several. Keys are validated before anything is
// deleted. The deletes are not atomic: when the store fails some keys, the
// others are gone and the error names the failed ones.
func (b *Bucket) Delete(ctx context.Context, keys ...string) error {
	if len(keys) > r2.MaxDeleteKeys {
		return fmt.Errorf("r2central delete: %d keys, at most %d allowed", len(keys), r2.MaxDeleteKeys)
	}
	ids := make([]types.ObjectIdentifier, len(keys))
	for i, key := range keys {
		k, err := b.s3Key(key)
		if err != nil {
			return fmt.Errorf("r2central delete: %w", err)
		}
		ids[i] = types.ObjectIdentifier{Key: aws.String(k)}
	}
	cctx, cancel := b.call(ctx)
	defer cancel()
	switch len(keys) {
	case 0:
		return nil
	case 1:
		_, err := b.api.DeleteObject(cctx, &s3.DeleteObjectInput{Bucket: &b.bucket, Key: ids[0].Key})
		if err != nil {
			return fail("delete", keys[0], ctx, cctx, err)
		}
		return nil
	}
	out, err := b.api.DeleteObjects(cctx, &s3.DeleteObjectsInput{
		Bucket: &b.bucket,
		Delete: &types.Delete{Objects: ids, Quiet: aws.Bool(true)},
	})
	if err != nil {
		return fail("delete", "", ctx, cctx, err)
	}
	var errs []error
	for _, e := range out.Errors {
		errs = append(errs, fmt.Errorf("%q: %s: %s", b.r2Key(aws.ToString(e.Key)), aws.ToString(e.Code), aws.ToString(e.Message)))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("r2central delete: %d of %d keys not deleted: %w", len(errs), len(keys), err)
	}
	return nil
}
