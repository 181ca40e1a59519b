package objcentral

import (
	"fmt"

	"github.com/klauspost/compress/s2"
)

// An object's primary holds its state as the pages of a SQLite database:
// the bytes of the holder's local replica, shipped as the holder commits
// them (see replica.go). Its reserved tables, in either layout
// (layouts.go):
//
//	epoch   the holder's epoch, the fencing token (fence.go)
//	head    the generation (a random id given when the object's head is
//	        made), the version (one more per commit), the database's
//	        size in pages and its page size
//	pages   one row per page: its number, the version that last wrote
//	        it, and its bytes compressed (S2 block format)
//
// A holder whose copy is at version v of the same generation fetches only
// the pages with a version above v; any other copy fetches every page.

// head is the object's head row at the primary.
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
