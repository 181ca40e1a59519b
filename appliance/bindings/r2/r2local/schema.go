package r2local

import (
	"context"
	"database/sql"
	"fmt"
)

// schemaVersion is the index layout this code reads and writes, kept in
// PRAGMA user_version.
const schemaVersion = 1

// schema is the index. Keys are BLOBs so that ordering and prefix ranges are
// plain byte comparisons, as in S3. An object's body is the blob named by its
// version; a part's body is the blob named in its row.
const schema = `
CREATE TABLE objects (
	key      BLOB PRIMARY KEY,
	version  TEXT NOT NULL,
	size     INTEGER NOT NULL,
	etag     TEXT NOT NULL,
	uploaded INTEGER NOT NULL, -- unix milliseconds
	http     TEXT NOT NULL,    -- JSON, see storedHTTP
	custom   TEXT NOT NULL,    -- JSON object
	md5      BLOB,             -- checksums given at put time
	sha256   BLOB
) WITHOUT ROWID;

CREATE TABLE uploads (
	id      TEXT PRIMARY KEY,
	key     BLOB NOT NULL,
	http    TEXT NOT NULL,
	custom  TEXT NOT NULL,
	created INTEGER NOT NULL -- unix milliseconds
) WITHOUT ROWID;

CREATE TABLE parts (
	upload_id TEXT NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
	number    INTEGER NOT NULL,
	blob      TEXT NOT NULL,
	size      INTEGER NOT NULL,
	md5       BLOB NOT NULL,
	PRIMARY KEY (upload_id, number)
) WITHOUT ROWID;
`

// migrate creates the index in an empty database and refuses one written by
// a newer version of dwk.
func migrate(ctx context.Context, db *sql.DB) error {
	var v int
	if err := db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
		return fmt.Errorf("read index schema version: %w", err)
	}
	switch {
	case v == schemaVersion:
		return nil
	case v > schemaVersion:
		return fmt.Errorf("index schema %d is newer than this binary's %d: upgrade dwk", v, schemaVersion)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("create index: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("create index: %w", err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, schemaVersion)); err != nil {
		return fmt.Errorf("create index: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("create index: %w", err)
	}
	return nil
}
