package objlocal

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/process/sqlitedb"
	"github.com/dwk/fleet/appliance/worker"
)

// AlarmIndex is the local alarm index, one row per object with an alarm.
type AlarmIndex struct {
	db *sql.DB
}

var _ objects.AlarmIndex = (*AlarmIndex)(nil)

const alarmIndexSchema = `CREATE TABLE IF NOT EXISTS alarms (
	namespace TEXT NOT NULL,
	id        TEXT NOT NULL,
	at_ms     INTEGER NOT NULL,
	retries   INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (namespace, id)
);
CREATE INDEX IF NOT EXISTS alarms_by_time ON alarms (at_ms)`

// AlarmIndexFile is the alarm index's file in a data directory.
const AlarmIndexFile = "alarms.sqlite"

// OpenAlarmIndex opens (creating if needed) the index at path, normally
// <data_dir>/AlarmIndexFile. The caller closes it after the runtime.
func OpenAlarmIndex(ctx context.Context, path string) (*AlarmIndex, error) {
	db, err := sqlitedb.Open(ctx, path, sqlitedb.Options{})
	if err != nil {
		return nil, fmt.Errorf("open alarm index: %w", err)
	}
	if _, err := db.ExecContext(ctx, alarmIndexSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("open alarm index %s: schema: %w", path, err)
	}
	return &AlarmIndex{db: db}, nil
}

// Close closes the index database.
func (x *AlarmIndex) Close() error { return x.db.Close() }

// Put implements objects.AlarmIndex.
func (x *AlarmIndex) Put(ctx context.Context, e objects.AlarmEntry) error {
	_, err := x.db.ExecContext(ctx,
		`INSERT INTO alarms (namespace, id, at_ms, retries) VALUES (?, ?, ?, ?)
		 ON CONFLICT (namespace, id) DO UPDATE SET at_ms = excluded.at_ms, retries = excluded.retries`,
		e.Object.Namespace(), e.Object.String(), e.At.UnixMilli(), e.Retries)
	if err != nil {
		return fmt.Errorf("alarm index put %s: %w", e.Object, err)
	}
	return nil
}

// Delete implements objects.AlarmIndex.
func (x *AlarmIndex) Delete(ctx context.Context, id worker.ObjectID) error {
	_, err := x.db.ExecContext(ctx, "DELETE FROM alarms WHERE namespace = ? AND id = ?", id.Namespace(), id.String())
	if err != nil {
		return fmt.Errorf("alarm index delete %s: %w", id, err)
	}
	return nil
}

// Due implements objects.AlarmIndex. One process owns the data directory,
// so no claim is needed.
func (x *AlarmIndex) Due(ctx context.Context, namespaces []string, now time.Time, limit int) ([]objects.AlarmEntry, error) {
	if len(namespaces) == 0 || limit <= 0 {
		return nil, nil
	}
	args := make([]any, 0, len(namespaces)+2)
	args = append(args, now.UnixMilli())
	for _, ns := range namespaces {
		args = append(args, ns)
	}
	args = append(args, limit)
	rows, err := x.db.QueryContext(ctx,
		`SELECT namespace, id, at_ms, retries FROM alarms
		 WHERE at_ms <= ? AND namespace IN (?`+strings.Repeat(", ?", len(namespaces)-1)+`)
		 ORDER BY at_ms LIMIT ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("alarm index due: %w", err)
	}
	defer rows.Close()
	var out []objects.AlarmEntry
	for rows.Next() {
		var ns, idHex string
		var atMS int64
		var retries int
		if err := rows.Scan(&ns, &idHex, &atMS, &retries); err != nil {
			return nil, fmt.Errorf("alarm index due: %w", err)
		}
		id, err := worker.ParseObjectID(ns, idHex)
		if err != nil {
			return nil, fmt.Errorf("alarm index due: bad id %q in namespace %q: %w", idHex, ns, err)
		}
		out = append(out, objects.AlarmEntry{Object: id, At: time.UnixMilli(atMS), Retries: retries})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("alarm index due: %w", err)
	}
	return out, nil
}
