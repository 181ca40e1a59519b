package lease

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
)

// The heartbeat and release need conditional writes whose refusal is an
// outcome, not a failed commit, in one round trip, which coord's
// all-or-nothing Atomic cannot give, so they are written here as
// statements on coord's tables. They follow coord's layout and rules
// exactly (appliance/fleet/coord/doc.go "Table layout", sql.go, commitplan.go):
//
//   - coord_kv(key BLOB, value, versionstamp, expires_at ms by the server's
//     clock), coord_meta(id = 1, versionstamp);
//   - a commit runs in BEGIN IMMEDIATE, bumps coord_meta.versionstamp once
//     and stamps every key it writes with the new value;
//   - a key whose expires_at has passed is absent, whatever the sweeper did.
//
// If coord.SchemaVersion changes, these statements must change with it.
const (
	// nowMS is coord's server-clock expression (coord/sql.go).
	nowMS = `CAST(round((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)`

	bumpSQL = `UPDATE coord_meta SET versionstamp = versionstamp + 1 WHERE id = 1 RETURNING versionstamp`

	// renewSQL extends the expiry of key ?1 by ?3 ms from now if it still
	// holds exactly the record ?2 and has not expired.
	renewSQL = `UPDATE coord_kv SET versionstamp = (SELECT versionstamp FROM coord_meta WHERE id = 1),
		expires_at = ` + nowMS + ` + ?3
		WHERE key = ?1 AND value = ?2 AND expires_at IS NOT NULL AND expires_at > ` + nowMS

	// releaseSQL deletes key ?1 if it holds exactly the record ?2 (expired
	// or not: an expired record of ours is ours to delete).
	releaseSQL = `DELETE FROM coord_kv WHERE key = ?1 AND value = ?2`
)

// condBatch runs stmts — each a conditional write of one lease — in one
// transaction in one round trip and reports, per statement, whether it
// changed a row. A statement that changed nothing is not an error. The
// transaction commits whatever succeeded; an error means nothing is known
// to have been written (after an error wrapping coord.ErrOutcomeUnknown,
// it may have been).
func condBatch(ctx context.Context, c *hranaclient.Client, stmts []hrana.Stmt) (coord.Versionstamp, []bool, error) {
	steps := make([]hrana.BatchStep, 0, len(stmts)+4)
	steps = append(steps,
		hrana.BatchStep{Stmt: hrana.NewStmt(`BEGIN IMMEDIATE`)},
		hrana.BatchStep{Condition: hrana.CondOK(0), Stmt: hrana.NewStmt(bumpSQL)},
	)
	for _, st := range stmts {
		f := false
		st.WantRows = &f
		steps = append(steps, hrana.BatchStep{Condition: hrana.CondOK(1), Stmt: st})
	}
	commit := uint32(len(steps))
	steps = append(steps,
		hrana.BatchStep{Condition: hrana.CondOK(1), Stmt: hrana.NewStmt(`COMMIT`)},
		hrana.BatchStep{
			Condition: hrana.CondAnd(*hrana.CondOK(0), *hrana.CondNot(hrana.CondOK(commit))),
			Stmt:      hrana.NewStmt(`ROLLBACK`),
		},
	)
	for attempt := 1; ; attempt++ {
		res, err := c.Batch(ctx, steps)
		if err != nil {
			return 0, nil, err
		}
		if e := hranaclient.StepError(res, 0); e != nil {
			if !isBusy(e) {
				return 0, nil, fmt.Errorf("begin: %w", e)
			}
			// Nothing began: safe to send again.
			if werr := sleep(ctx, time.Duration(attempt)*5*time.Millisecond); werr != nil {
				return 0, nil, fmt.Errorf("%w (database busy: %w)", werr, e)
			}
			continue
		}
		for i := 1; i < len(steps)-1; i++ {
			if e := hranaclient.StepError(res, i); e != nil {
				return 0, nil, fmt.Errorf("batch step %d: %w", i, e)
			}
		}
		if !hranaclient.StepRan(res, int(commit)) {
			return 0, nil, fmt.Errorf("COMMIT did not run and no step reported why")
		}
		rows := res.StepResults[1].Rows
		if len(rows) != 1 || len(rows[0]) != 1 || rows[0][0].Kind != hrana.KindInteger {
			return 0, nil, fmt.Errorf("versionstamp missing from the result")
		}
		changed := make([]bool, len(stmts))
		for i := range stmts {
			changed[i] = res.StepResults[2+i].AffectedRowCount > 0
		}
		return coord.Versionstamp(rows[0][0].Int), changed, nil
	}
}

// renewStmt extends the expiry of key (tuple-encoded) by ttl if it still
// holds exactly value and has not expired.
func renewStmt(key, value []byte, ttl time.Duration) hrana.Stmt {
	ms := int64((ttl + time.Millisecond - 1) / time.Millisecond)
	return hrana.NewStmt(renewSQL, hrana.Blob(key), hrana.Blob(value), hrana.Integer(ms))
}

// deleteStmt deletes key (tuple-encoded) if it holds exactly value.
func deleteStmt(key, value []byte) hrana.Stmt {
	return hrana.NewStmt(releaseSQL, hrana.Blob(key), hrana.Blob(value))
}

// releaseStmt deletes l's key if it still holds l's record.
func releaseStmt(l *Lease) hrana.Stmt { return deleteStmt(l.encoded, l.value) }

// isBusy recognises a database locked by another connection, as coord does.
func isBusy(e *hranaclient.Error) bool {
	return strings.HasPrefix(e.Code, "SQLITE_BUSY") || strings.HasPrefix(e.Code, "SQLITE_LOCKED") ||
		strings.Contains(e.Message, "database is locked")
}

// sleep waits for d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
