package migrate

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/dwk/fleet/appliance/bindings/d1"
	"github.com/dwk/fleet/appliance/bindings/d1/d1migrations"
	"github.com/dwk/fleet/appliance/worker"
)

// d1Kind copies a D1 database as one entry: its dump (d1.Dump, what
// `wrangler d1 export` writes), run on the destination in one
// transaction, so a copy is whole or absent. Its digest is the dump's.
type d1Kind struct {
	src, dst worker.D1Backend
	// dump is the source's, read by entries.
	dump []byte
}

func (k *d1Kind) entries(ctx context.Context, from bool) (map[string]entry, error) {
	db := k.dst
	if from {
		db = k.src
	}
	var b bytes.Buffer
	if err := d1.Dump(ctx, db, &b, d1.DumpOptions{}); err != nil {
		return nil, err
	}
	stmts, err := d1migrations.Statements(b.String())
	if err != nil {
		return nil, err
	}
	if len(stmts) <= 1 { // only the dump's PRAGMA: no table
		return map[string]entry{}, nil
	}
	if from {
		k.dump = b.Bytes()
	}
	sum := sha256.Sum256(b.Bytes())
	return map[string]entry{"": {digest: hex.EncodeToString(sum[:]), size: int64(b.Len())}}, nil
}

// dropSQL lists the destination's tables and views, to drop them first
// when it is replaced (their indexes and triggers go with them).
const dropSQL = "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE '_dwk_%'"

func (k *d1Kind) copy(ctx context.Context, _ string, replace bool) error {
	stmts, err := d1migrations.Statements(string(k.dump))
	if err != nil {
		return err
	}
	var qs []worker.D1Query
	if replace {
		res, err := k.dst.Batch(ctx, []worker.D1Query{{SQL: dropSQL}})
		if err != nil {
			return fmt.Errorf("list the tables to replace: %w", err)
		}
		qs = append(qs, worker.D1Query{SQL: "PRAGMA defer_foreign_keys=TRUE"})
		for _, row := range res[0].Rows {
			typ, _ := row[0].(string)
			name, _ := row[1].(string)
			qs = append(qs, worker.D1Query{SQL: fmt.Sprintf("DROP %s IF EXISTS %s", typ, d1.QuoteIdent(name))})
		}
	}
	for _, s := range stmts {
		qs = append(qs, worker.D1Query{SQL: s})
	}
	_, err = k.dst.Batch(ctx, qs)
	return err
}
