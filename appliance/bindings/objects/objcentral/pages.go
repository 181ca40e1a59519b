package objcentral

import (
	"fmt"

	"github.com/klauspost/compress/s2"
)

// An object's primary database holds its state as the pages of a SQLite
// database: the bytes of the holder's local replica, shipped as the
// holder commits them (see replica.go). Reserved tables:
//
//	_dwk_epoch    the holder's epoch, the fencing token (fence.go)
//	_dwk_replica  one row: the generation (a random id given when the
//	              table is created), the version (one more per commit),
//	              the database's size in pages and its page size
//	_dwk_pages    one row per page: its number, the version that last
//	              wrote it, and its bytes compressed (S2 block format)
//
// A holder whose copy is at version v of the same generation fetches only
// the pages with a version above v; any other copy fetches every page.
const (
	replicaSchema = `CREATE TABLE IF NOT EXISTS _dwk_replica (k INTEGER PRIMARY KEY CHECK (k = 0),
		gen TEXT NOT NULL, version INTEGER NOT NULL, pages INTEGER NOT NULL, page_size INTEGER NOT NULL)`
	pagesSchema = `CREATE TABLE IF NOT EXISTS _dwk_pages (pgno INTEGER PRIMARY KEY, version INTEGER NOT NULL, data BLOB NOT NULL)`
	pagesIndex  = `CREATE INDEX IF NOT EXISTS _dwk_pages_version ON _dwk_pages (version)`
	// replicaInit gives a new database its generation ?1.
	replicaInit   = `INSERT INTO _dwk_replica (k, gen, version, pages, page_size) VALUES (0, ?1, 0, 0, 0) ON CONFLICT (k) DO NOTHING`
	replicaSelect = `SELECT gen, version, pages, page_size FROM _dwk_replica WHERE k = 0`
	// pagesSince returns the pages a copy at generation ?1, version ?2
	// lacks: those written after ?2 when the generation matches and the
	// copy is not ahead of the primary, every page otherwise.
	pagesSince = `SELECT pgno, data FROM _dwk_pages
		WHERE version > (SELECT CASE WHEN gen = ?1 AND version >= ?2 THEN ?2 ELSE -1 END FROM _dwk_replica WHERE k = 0)
		AND pgno <= (SELECT pages FROM _dwk_replica WHERE k = 0) ORDER BY pgno`
	// legacyTables counts tables written by the earlier, row-per-row
	// format, which kept the object's own tables in this database.
	legacyTables = `SELECT count(*) FROM sqlite_schema WHERE type = 'table'
		AND name NOT LIKE '\_dwk\_%' ESCAPE '\' AND name NOT LIKE 'sqlite\_%' ESCAPE '\'`
	// pagesUpsert writes one page; pushes repeat it per page.
	pagesUpsert = `INSERT INTO _dwk_pages (pgno, version, data) VALUES (?1, ?2, ?3)
		ON CONFLICT (pgno) DO UPDATE SET version = excluded.version, data = excluded.data`
	pagesTruncate = `DELETE FROM _dwk_pages WHERE pgno > ?1`
	// replicaAdvance moves the head from version ?4 to ?1; the commit
	// checks that it changed one row.
	replicaAdvance = `UPDATE _dwk_replica SET version = ?1, pages = ?2, page_size = ?3 WHERE k = 0 AND version = ?4`
)

// head is the primary's _dwk_replica row.
type head struct {
	gen      string
	version  int64
	pages    int64
	pageSize int
}

// encodePage compresses a page for _dwk_pages: most pages of small objects
// are mostly zeros, and a compressed page fits in one libSQL page where a
// raw one needs an overflow page.
func encodePage(page []byte) []byte { return s2.Encode(nil, page) }

// decodePage reverses encodePage and checks the page's size.
func decodePage(data []byte, pageSize int) ([]byte, error) {
	page, err := s2.Decode(nil, data)
	if err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	if len(page) != pageSize {
		return nil, fmt.Errorf("holds %d bytes, want %d", len(page), pageSize)
	}
	return page, nil
}
