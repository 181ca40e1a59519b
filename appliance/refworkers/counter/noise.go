package counter

import (
	"context"
	"encoding/hex"
	"fmt"
	"net/http"

	"github.com/dwk/fleet/appliance/worker"
)

// The noise table holds rows whose values SQLite makes up as it writes
// them: an AUTOINCREMENT key, random(), datetime('now'), randomblob() and
// last_insert_rowid(). Tests compare them as one holder wrote them with
// what a later holder reads, to show that what reaches the primary is what
// the writer's copy holds, not the statements run again.
const noiseSchema = `CREATE TABLE IF NOT EXISTS noise (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  rnd INTEGER NOT NULL,
  at TEXT NOT NULL,
  blob BLOB NOT NULL,
  ref INTEGER
)`

// noiseRow is one row of the noise table as the rows route answers it.
type noiseRow struct {
	ID   int64  `json:"id"`
	Rnd  int64  `json:"rnd"`
	At   string `json:"at"`
	Blob string `json:"blob"` // hex
	Ref  *int64 `json:"ref"`
}

// noise inserts two rows in one transaction: one of random values, and
// one that refers to it through last_insert_rowid(). It answers the ids
// of both.
func (o *object) noise(w http.ResponseWriter, r *http.Request) {
	var ids []int64
	err := o.state.Storage.Transaction(r.Context(), func(tx *worker.StorageTx) error {
		ids = ids[:0]
		if _, err := tx.Exec(r.Context(), noiseSchema); err != nil {
			return err
		}
		for _, q := range []string{
			`INSERT INTO noise (rnd, at, blob) VALUES (random(), datetime('now'), randomblob(16)) RETURNING id`,
			`INSERT INTO noise (rnd, at, blob, ref) VALUES (random(), strftime('%Y-%m-%d %H:%M:%f', 'now'), randomblob(16), last_insert_rowid()) RETURNING id`,
		} {
			cur, err := tx.Exec(r.Context(), q)
			if err != nil {
				return err
			}
			row, err := cur.One()
			if err != nil {
				return err
			}
			id, ok := row["id"].(int64)
			if !ok {
				return fmt.Errorf("noise: id %v is not an integer", row["id"])
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		fail(w, err)
		return
	}
	reply(w, map[string]any{"ids": ids})
}

// rows answers every row of the noise table, ordered by id, blobs in hex.
func (o *object) rows(w http.ResponseWriter, r *http.Request) {
	rows, err := o.noiseRows(r.Context())
	if err != nil {
		fail(w, err)
		return
	}
	reply(w, map[string]any{"rows": rows})
}

func (o *object) noiseRows(ctx context.Context) ([]noiseRow, error) {
	out := []noiseRow{}
	// A read makes no table: the route stays read-only.
	cur, err := o.state.Storage.Exec(ctx, `SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name = 'noise'`)
	if err != nil {
		return nil, err
	}
	if row, err := cur.One(); err != nil {
		return nil, err
	} else if row["n"] == int64(0) {
		return out, nil
	}
	cur, err = o.state.Storage.Exec(ctx, `SELECT id, rnd, at, blob, ref FROM noise ORDER BY id`)
	if err != nil {
		return nil, err
	}
	for cur.Next() {
		v := cur.Row()
		id, ok1 := v[0].(int64)
		rnd, ok2 := v[1].(int64)
		at, ok3 := v[2].(string)
		blob, ok4 := v[3].([]byte)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return nil, fmt.Errorf("noise: unexpected row types %T %T %T %T", v[0], v[1], v[2], v[3])
		}
		row := noiseRow{ID: id, Rnd: rnd, At: at, Blob: hex.EncodeToString(blob)}
		if ref, ok := v[4].(int64); ok {
			row.Ref = &ref
		}
		out = append(out, row)
	}
	return out, nil
}
