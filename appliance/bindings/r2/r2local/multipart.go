package r2local

import (
	"context"
	"crypto/md5"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/dwk/fleet/appliance/bindings/r2"
	"github.com/dwk/fleet/appliance/worker"
)

// CreateMultipartUpload implements worker.R2Bucket. Uploads that are never
// completed or aborted keep their parts on disk.
func (b *Bucket) CreateMultipartUpload(ctx context.Context, key string, opts *worker.R2MultipartOptions) (worker.R2MultipartUpload, error) {
	if err := r2.ValidateKey(key); err != nil {
		return nil, fmt.Errorf("r2local create multipart upload: %w", err)
	}
	if opts == nil {
		opts = &worker.R2MultipartOptions{}
	}
	http, err := encodeHTTP(opts.HTTPMetadata)
	if err != nil {
		return nil, fmt.Errorf("r2local create multipart upload %q: encode http metadata: %w", key, err)
	}
	custom, err := encodeCustom(opts.CustomMetadata)
	if err != nil {
		return nil, fmt.Errorf("r2local create multipart upload %q: encode custom metadata: %w", key, err)
	}
	id, err := b.newID()
	if err != nil {
		return nil, fmt.Errorf("r2local create multipart upload %q: %w", key, err)
	}
	err = b.writeTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO uploads (id, key, http, custom, created) VALUES (?, ?, ?, ?, ?)`,
			id, []byte(key), http, custom, b.uploadedNow().UnixMilli())
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("r2local create multipart upload %q: %w", key, err)
	}
	return &upload{b: b, key: key, id: id}, nil
}

// ResumeMultipartUpload implements worker.R2Bucket.
func (b *Bucket) ResumeMultipartUpload(key, uploadID string) worker.R2MultipartUpload {
	return &upload{b: b, key: key, id: uploadID}
}

// upload is a handle on one multipart upload; all state is in the index.
type upload struct {
	b       *Bucket
	key, id string
}

var _ worker.R2MultipartUpload = (*upload)(nil)

// Key implements worker.R2MultipartUpload.
func (u *upload) Key() string { return u.key }

// UploadID implements worker.R2MultipartUpload.
func (u *upload) UploadID() string { return u.id }

// storedPart is a part's index row.
type storedPart struct {
	blob string
	size int64
	md5  []byte
}

// UploadPart implements worker.R2MultipartUpload. Uploading a part number
// again replaces the earlier part. The part's ETag is the hex MD5 of its body.
func (u *upload) UploadPart(ctx context.Context, n int, body io.Reader) (worker.R2UploadedPart, error) {
	if n < 1 || n > r2.MaxPartNumber {
		return worker.R2UploadedPart{}, fmt.Errorf("r2local upload part %d of %s: part number outside 1..%d: %w",
			n, u.id, r2.MaxPartNumber, worker.ErrInvalidPart)
	}
	if body == nil {
		body = strings.NewReader("")
	}
	if err := u.exists(ctx, u.b.db); err != nil { // fail before reading a body for nothing
		return worker.R2UploadedPart{}, fmt.Errorf("r2local upload part %d: %w", n, err)
	}
	blob, size, sum, err := u.writePart(ctx, body)
	if err != nil {
		return worker.R2UploadedPart{}, fmt.Errorf("r2local upload part %d of %s: %w", n, u.id, err)
	}
	var old string
	err = u.b.writeTx(ctx, func(tx *sql.Tx) error {
		if err := u.exists(ctx, tx); err != nil {
			return err
		}
		err := tx.QueryRowContext(ctx, `SELECT blob FROM parts WHERE upload_id = ? AND number = ?`, u.id, n).Scan(&old)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("read index: %w", err)
		}
		_, err = tx.ExecContext(ctx, `INSERT OR REPLACE INTO parts (upload_id, number, blob, size, md5) VALUES (?, ?, ?, ?, ?)`,
			u.id, n, blob, size, sum)
		if err != nil {
			return fmt.Errorf("write index: %w", err)
		}
		return nil
	})
	if err != nil {
		u.b.blobs.remove(blob)
		return worker.R2UploadedPart{}, fmt.Errorf("r2local upload part %d: %w", n, err)
	}
	if old != "" {
		u.b.blobs.remove(old) // on failure the next Open sweeps it
	}
	return worker.R2UploadedPart{PartNumber: n, ETag: r2.ETag(sum)}, nil
}

// writePart makes body a durable blob and returns its id, size and MD5.
func (u *upload) writePart(ctx context.Context, body io.Reader) (blob string, size int64, sum []byte, err error) {
	p, err := u.b.blobs.begin()
	if err != nil {
		return "", 0, nil, err
	}
	h := md5.New()
	size, err = io.Copy(io.MultiWriter(p.f, h), ctxReader{ctx, body})
	if err != nil {
		p.discard()
		return "", 0, nil, fmt.Errorf("write part: %w", err)
	}
	blob, err = u.b.newID()
	if err != nil {
		p.discard()
		return "", 0, nil, err
	}
	if err := p.commit(blob); err != nil {
		return "", 0, nil, err
	}
	return blob, size, h.Sum(nil), nil
}

// exists returns an error wrapping worker.ErrNoSuchUpload unless the upload
// is in progress for u.key.
func (u *upload) exists(ctx context.Context, q querier) error {
	var one int
	err := q.QueryRowContext(ctx, `SELECT 1 FROM uploads WHERE id = ? AND key = ?`, u.id, []byte(u.key)).Scan(&one)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("upload %s of %q: %w", u.id, u.key, worker.ErrNoSuchUpload)
	case err != nil:
		return fmt.Errorf("read index: %w", err)
	}
	return nil
}

// parts returns the stored parts of the upload by number.
func (u *upload) parts(ctx context.Context, q querier) (map[int]storedPart, error) {
	rows, err := q.QueryContext(ctx, `SELECT number, blob, size, md5 FROM parts WHERE upload_id = ?`, u.id)
	if err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	defer rows.Close()
	parts := make(map[int]storedPart)
	for rows.Next() {
		var (
			n int
			p storedPart
		)
		if err := rows.Scan(&n, &p.blob, &p.size, &p.md5); err != nil {
			return nil, fmt.Errorf("read index: %w", err)
		}
		parts[n] = p
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	return parts, nil
}

// Abort implements worker.R2MultipartUpload. Aborting an upload that is
// unknown, completed or already aborted returns worker.ErrNoSuchUpload.
func (u *upload) Abort(ctx context.Context) error {
	var blobs []string
	err := u.b.writeTx(ctx, func(tx *sql.Tx) error {
		if err := u.exists(ctx, tx); err != nil {
			return err
		}
		var err error
		blobs, err = u.forget(ctx, tx)
		return err
	})
	if err != nil {
		return fmt.Errorf("r2local abort: %w", err)
	}
	u.b.blobs.remove(blobs...) // on failure the next Open sweeps them
	return nil
}

// forget deletes the upload and its parts from the index and returns the
// part blobs to remove once the transaction commits.
func (u *upload) forget(ctx context.Context, tx *sql.Tx) ([]string, error) {
	parts, err := u.parts(ctx, tx)
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM parts WHERE upload_id = ?`, u.id); err != nil {
		return nil, fmt.Errorf("write index: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM uploads WHERE id = ?`, u.id); err != nil {
		return nil, fmt.Errorf("write index: %w", err)
	}
	blobs := make([]string, 0, len(parts))
	for _, p := range parts {
		blobs = append(blobs, p.blob)
	}
	return blobs, nil
}

// openPart opens a part's blob. When it is gone, the upload was completed
// or aborted meanwhile, or the part was uploaded again.
func (u *upload) openPart(ctx context.Context, n int, p storedPart) (io.ReadCloser, error) {
	f, err := u.b.blobs.open(p.blob)
	if errors.Is(err, fs.ErrNotExist) {
		if err := u.exists(ctx, u.b.db); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("part %d was replaced during complete: %w", n, worker.ErrInvalidPart)
	}
	if err != nil {
		return nil, fmt.Errorf("open part %d: %w", n, err)
	}
	return f, nil
}
