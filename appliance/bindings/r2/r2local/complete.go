package r2local

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/dwk/fleet/appliance/bindings/r2"
	"github.com/dwk/fleet/appliance/worker"
)

// Complete implements worker.R2MultipartUpload with S3's rules: parts
// listed in ascending order, each uploaded with the given ETag, all but the
// last at least 5 MiB. Otherwise it returns worker.ErrInvalidPart and the
// upload stays open. On success the parts are concatenated into a new
// object (parts not listed are discarded) and the upload is gone.
func (u *upload) Complete(ctx context.Context, parts []worker.R2UploadedPart) (*worker.R2Object, error) {
	o, err := u.complete(ctx, parts)
	if err != nil {
		return nil, fmt.Errorf("r2local complete %s of %q: %w", u.id, u.key, err)
	}
	return o, nil
}

func (u *upload) complete(ctx context.Context, parts []worker.R2UploadedPart) (*worker.R2Object, error) {
	o, err := u.object(ctx)
	if err != nil {
		return nil, err
	}
	stored, err := u.parts(ctx, u.b.db)
	if err != nil {
		return nil, err
	}
	chosen, err := choose(parts, stored)
	if err != nil {
		return nil, err
	}
	if err := u.concat(ctx, o, parts, chosen); err != nil {
		return nil, err
	}
	var old string
	var drop []string
	err = u.b.writeTx(ctx, func(tx *sql.Tx) error {
		if err := u.exists(ctx, tx); err != nil {
			return err
		}
		now, err := u.parts(ctx, tx)
		if err != nil {
			return err
		}
		for i, p := range parts {
			if now[p.PartNumber].blob != chosen[i].blob {
				return fmt.Errorf("part %d was replaced during complete: %w", p.PartNumber, worker.ErrInvalidPart)
			}
		}
		o.Uploaded = u.b.uploadedNow()
		if old, err = store(ctx, tx, o); err != nil {
			return err
		}
		drop, err = u.forget(ctx, tx)
		return err
	})
	if err != nil {
		u.b.blobs.remove(o.Version)
		return nil, err
	}
	u.b.blobs.remove(append(drop, old)...) // on failure the next Open sweeps them
	return o, nil
}

// object returns the object the upload will become, without body details.
func (u *upload) object(ctx context.Context) (*worker.R2Object, error) {
	var http, custom string
	err := u.b.db.QueryRowContext(ctx, `SELECT http, custom FROM uploads WHERE id = ? AND key = ?`,
		u.id, []byte(u.key)).Scan(&http, &custom)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, worker.ErrNoSuchUpload
	case err != nil:
		return nil, fmt.Errorf("read index: %w", err)
	}
	o := &worker.R2Object{Key: u.key}
	if o.HTTPMetadata, err = decodeHTTP(http); err != nil {
		return nil, err
	}
	if o.CustomMetadata, err = decodeCustom(custom); err != nil {
		return nil, err
	}
	return o, nil
}

// choose checks the listed parts against the stored ones and returns them
// in order.
func choose(parts []worker.R2UploadedPart, stored map[int]storedPart) ([]storedPart, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("no parts listed: %w", worker.ErrInvalidPart)
	}
	chosen := make([]storedPart, len(parts))
	for i, p := range parts {
		if i > 0 && p.PartNumber <= parts[i-1].PartNumber {
			return nil, fmt.Errorf("part %d after part %d: parts must be listed in ascending order: %w",
				p.PartNumber, parts[i-1].PartNumber, worker.ErrInvalidPart)
		}
		s, ok := stored[p.PartNumber]
		if !ok {
			return nil, fmt.Errorf("part %d was not uploaded: %w", p.PartNumber, worker.ErrInvalidPart)
		}
		if etag, _ := r2.UnquoteETag(p.ETag); etag != r2.ETag(s.md5) {
			return nil, fmt.Errorf("part %d has etag %s, not %s: %w", p.PartNumber, r2.ETag(s.md5), p.ETag, worker.ErrInvalidPart)
		}
		if i < len(parts)-1 && s.size < r2.MinPartSize {
			return nil, fmt.Errorf("part %d is %d bytes; all parts but the last must be at least %d: %w",
				p.PartNumber, s.size, r2.MinPartSize, worker.ErrInvalidPart)
		}
		chosen[i] = s
	}
	return chosen, nil
}

// concat writes the chosen parts, in order, into a new durable blob and
// fills in o's version, size and ETag.
func (u *upload) concat(ctx context.Context, o *worker.R2Object, parts []worker.R2UploadedPart, chosen []storedPart) error {
	p, err := u.b.blobs.begin()
	if err != nil {
		return err
	}
	sums := make([][]byte, len(chosen))
	for i, s := range chosen {
		if err := ctx.Err(); err != nil {
			p.discard()
			return err
		}
		part, err := u.openPart(ctx, parts[i].PartNumber, s)
		if err != nil {
			p.discard()
			return err
		}
		n, err := p.f.ReadFrom(part) // copy_file_range where the OS has it
		part.Close()
		if err == nil && n != s.size {
			err = fmt.Errorf("copied %d of %d bytes", n, s.size)
		}
		if err != nil {
			p.discard()
			return fmt.Errorf("copy part %d: %w", parts[i].PartNumber, err)
		}
		o.Size += n
		sums[i] = s.md5
	}
	if o.Version, err = u.b.newID(); err != nil {
		p.discard()
		return err
	}
	if err := p.commit(o.Version); err != nil {
		return err
	}
	o.ETag = r2.MultipartETag(sums)
	o.HTTPETag = r2.QuoteETag(o.ETag)
	return nil
}
