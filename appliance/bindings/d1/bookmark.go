package d1

import (
	"fmt"

	"github.com/dwk/fleet/appliance/worker"
)

// The SQL both backends run to keep a database's commit position (see
// worker.D1Position) in the table worker.D1BookmarkTable.
const (
	// BookmarkSchema creates the position's table if need be.
	BookmarkSchema = "CREATE TABLE IF NOT EXISTS " + worker.D1BookmarkTable +
		" (id INTEGER PRIMARY KEY CHECK (id = 1), epoch INTEGER NOT NULL, position INTEGER NOT NULL)"
	// BookmarkAdvance counts one more commit, inside the transaction of
	// the write it counts, and returns the new position. The first write
	// draws the database's epoch (random, non-zero).
	BookmarkAdvance = "INSERT INTO " + worker.D1BookmarkTable + " (id, epoch, position) VALUES (1, random() | 1, 1)" +
		" ON CONFLICT (id) DO UPDATE SET position = position + 1 RETURNING epoch, position"
	// BookmarkRead returns the position: one row, (0, 0) before the
	// first write.
	BookmarkRead = "SELECT coalesce(max(epoch), 0), coalesce(max(position), 0) FROM " + worker.D1BookmarkTable
	// BookmarkCheck fails (malformed JSON) unless the database has
	// reached the position of epoch ?1 (0: any) and commit ?2, so that a
	// backend that sends a batch as one request can make the batch's
	// statements depend on it. Positions only grow, so statements after it
	// see at least that position.
	BookmarkCheck = "SELECT json(CASE WHEN (?1 = 0 OR e = 0 OR e = ?1) AND p >= ?2 THEN '0' ELSE 'bookmark ahead' END)" +
		" FROM (SELECT coalesce(max(epoch), 0) AS e, coalesce(max(position), 0) AS p FROM " + worker.D1BookmarkTable + ")"
)

// BookmarkCheckArgs are BookmarkCheck's arguments for want.
func BookmarkCheckArgs(want worker.D1Position) []any {
	return []any{int64(want.Epoch), int64(want.Commit)}
}

// Position turns a row of BookmarkAdvance or BookmarkRead into a position.
func Position(row []any) (worker.D1Position, error) {
	if len(row) != 2 {
		return worker.D1Position{}, fmt.Errorf("d1: bookmark row has %d columns, want 2", len(row))
	}
	e, ok1 := row[0].(int64)
	c, ok2 := row[1].(int64)
	if !ok1 || !ok2 || c < 0 {
		return worker.D1Position{}, fmt.Errorf("d1: bookmark row %v is not (epoch, position) integers: was %s written to?", row, worker.D1BookmarkTable)
	}
	return worker.D1Position{Epoch: uint64(e), Commit: uint64(c)}, nil
}
