package queuecentral

import (
	"context"
	"fmt"

	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
)

// SchemaVersion is the table layout this package writes and reads. Open
// refuses a database laid out by a newer dwk.
const SchemaVersion = 1

// schema creates the tables; ensureSchema runs it in one transaction.
var schema = []string{
	`CREATE TABLE IF NOT EXISTS queue_meta (
		id             INTEGER PRIMARY KEY CHECK (id = 1),
		schema_version INTEGER NOT NULL
	)`,
	`CREATE TABLE IF NOT EXISTS queue_messages (
		seq          INTEGER PRIMARY KEY,
		queue        TEXT    NOT NULL,
		id           TEXT    NOT NULL UNIQUE,
		body         BLOB    NOT NULL,
		content_type TEXT    NOT NULL,
		sent_at      INTEGER NOT NULL,
		visible_at   INTEGER NOT NULL,
		ready_at     INTEGER NOT NULL DEFAULT 0,
		attempts     INTEGER NOT NULL DEFAULT 0,
		receipt      TEXT
	)`,
	`CREATE INDEX IF NOT EXISTS queue_messages_visible ON queue_messages (queue, visible_at, seq)`,
	`CREATE INDEX IF NOT EXISTS queue_messages_sent ON queue_messages (queue, sent_at)`,
	`INSERT INTO queue_meta (id, schema_version) VALUES (1, ` + fmt.Sprint(SchemaVersion) + `) ON CONFLICT (id) DO NOTHING`,
}

// ensureSchema creates the tables if needed and checks the layout
// version, in one round trip.
func (b *Broker) ensureSchema(ctx context.Context) error {
	stmts := make([]hrana.Stmt, 0, len(schema)+1)
	for _, sql := range schema {
		stmts = append(stmts, hrana.NewStmt(sql))
	}
	stmts = append(stmts, hrana.NewStmt(`SELECT schema_version FROM queue_meta WHERE id = 1`))
	res, err := b.transact(ctx, "create queue schema", stmts)
	if err != nil {
		if hranaclient.IsCode(err, hrana.CodeNamespaceNotFound) {
			return fmt.Errorf("%w: namespace %q: create it first (terraform apply, or libsqladmin.Create): %w", ErrNoDatabase, b.c.Namespace(), err)
		}
		return err
	}
	rows := res[len(res)-1].Rows
	if len(rows) != 1 || len(rows[0]) != 1 || rows[0][0].Kind != hrana.KindInteger {
		return fmt.Errorf("read queue schema version: queue_meta has no row")
	}
	if v := rows[0][0].Int; v > SchemaVersion {
		return fmt.Errorf("%w: database has schema %d, this dwk knows %d: upgrade dwk", ErrSchemaTooNew, v, SchemaVersion)
	}
	return nil
}
