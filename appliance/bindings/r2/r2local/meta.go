package r2local

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/dwk/fleet/appliance/bindings/r2"
	"github.com/dwk/fleet/appliance/worker"
)

// querier is what both *sql.DB and *sql.Tx offer.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// storedHTTP is worker.R2HTTPMetadata as kept in the index.
type storedHTTP struct {
	ContentType        string `json:"contentType,omitempty"`
	ContentLanguage    string `json:"contentLanguage,omitempty"`
	ContentDisposition string `json:"contentDisposition,omitempty"`
	ContentEncoding    string `json:"contentEncoding,omitempty"`
	CacheControl       string `json:"cacheControl,omitempty"`
	// CacheExpiry is RFC 3339 with nanoseconds, in UTC; empty when unset.
	CacheExpiry string `json:"cacheExpiry,omitempty"`
}

func encodeHTTP(h worker.R2HTTPMetadata) (string, error) {
	s := storedHTTP{
		ContentType:        h.ContentType,
		ContentLanguage:    h.ContentLanguage,
		ContentDisposition: h.ContentDisposition,
		ContentEncoding:    h.ContentEncoding,
		CacheControl:       h.CacheControl,
	}
	if !h.CacheExpiry.IsZero() {
		s.CacheExpiry = h.CacheExpiry.UTC().Format(time.RFC3339Nano)
	}
	b, err := json.Marshal(s)
	return string(b), err
}

func decodeHTTP(text string) (worker.R2HTTPMetadata, error) {
	var s storedHTTP
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		return worker.R2HTTPMetadata{}, fmt.Errorf("decode http metadata: %w", err)
	}
	h := worker.R2HTTPMetadata{
		ContentType:        s.ContentType,
		ContentLanguage:    s.ContentLanguage,
		ContentDisposition: s.ContentDisposition,
		ContentEncoding:    s.ContentEncoding,
		CacheControl:       s.CacheControl,
	}
	if s.CacheExpiry != "" {
		t, err := time.Parse(time.RFC3339Nano, s.CacheExpiry)
		if err != nil {
			return worker.R2HTTPMetadata{}, fmt.Errorf("decode cache expiry: %w", err)
		}
		h.CacheExpiry = t
	}
	return h, nil
}

func encodeCustom(m map[string]string) (string, error) {
	if m == nil {
		m = map[string]string{}
	}
	b, err := json.Marshal(m)
	return string(b), err
}

// decodeCustom returns nil for no metadata.
func decodeCustom(text string) (map[string]string, error) {
	var m map[string]string
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		return nil, fmt.Errorf("decode custom metadata: %w", err)
	}
	if len(m) == 0 {
		return nil, nil
	}
	return m, nil
}

// objectCols are the columns scanObject reads, in order.
const objectCols = `key, version, size, etag, uploaded, http, custom, md5, sha256`

// scanner is a *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

func scanObject(s scanner) (*worker.R2Object, error) {
	var (
		key, md5, sha256 []byte
		uploaded         int64
		http, custom     string
		o                worker.R2Object
	)
	if err := s.Scan(&key, &o.Version, &o.Size, &o.ETag, &uploaded, &http, &custom, &md5, &sha256); err != nil {
		return nil, err
	}
	var err error
	if o.HTTPMetadata, err = decodeHTTP(http); err != nil {
		return nil, err
	}
	if o.CustomMetadata, err = decodeCustom(custom); err != nil {
		return nil, err
	}
	o.Key = string(key)
	o.HTTPETag = r2.QuoteETag(o.ETag)
	o.Uploaded = time.UnixMilli(uploaded).UTC()
	o.Checksums = worker.R2Checksums{MD5: md5, SHA256: sha256}
	return &o, nil
}

// lookup returns the object stored under key, or an error wrapping
// worker.ErrNotFound.
func lookup(ctx context.Context, q querier, key string) (*worker.R2Object, error) {
	o, err := scanObject(q.QueryRowContext(ctx, `SELECT `+objectCols+` FROM objects WHERE key = ?`, []byte(key)))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, worker.ErrNotFound
	case err != nil:
		return nil, fmt.Errorf("read index: %w", err)
	}
	return o, nil
}

// lookupOrNil is lookup with a missing object as nil, for conditionals.
func lookupOrNil(ctx context.Context, q querier, key string) (*worker.R2Object, error) {
	o, err := lookup(ctx, q, key)
	if errors.Is(err, worker.ErrNotFound) {
		return nil, nil
	}
	return o, err
}

// store writes o as the object under o.Key and returns the version it
// replaced, or "" if there was none.
func store(ctx context.Context, tx *sql.Tx, o *worker.R2Object) (old string, err error) {
	err = tx.QueryRowContext(ctx, `SELECT version FROM objects WHERE key = ?`, []byte(o.Key)).Scan(&old)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("read index: %w", err)
	}
	http, err := encodeHTTP(o.HTTPMetadata)
	if err != nil {
		return "", fmt.Errorf("encode http metadata: %w", err)
	}
	custom, err := encodeCustom(o.CustomMetadata)
	if err != nil {
		return "", fmt.Errorf("encode custom metadata: %w", err)
	}
	_, err = tx.ExecContext(ctx, `INSERT OR REPLACE INTO objects (`+objectCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		[]byte(o.Key), o.Version, o.Size, o.ETag, o.Uploaded.UnixMilli(), http, custom,
		nullBytes(o.Checksums.MD5), nullBytes(o.Checksums.SHA256))
	if err != nil {
		return "", fmt.Errorf("write index: %w", err)
	}
	return old, nil
}

// nullBytes stores an absent checksum as NULL.
func nullBytes(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return b
}

// cloneMetadata copies caller-owned metadata so later changes by the caller
// do not alias what was stored.
func cloneMetadata(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return maps.Clone(m)
}
