package coord

import (
	"fmt"
	"strings"

	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
)

// commitPlan is the Hrana batch of one atomic operation and the indexes
// of its steps. The batch is:
//
//	BEGIN IMMEDIATE
//	UPDATE coord_meta SET check_ok = CASE WHEN <all checks> THEN 1 END   (if checks)
//	UPDATE coord_meta SET versionstamp = versionstamp + 1 … RETURNING
//	<mutations, in order>
//	COMMIT
//	ROLLBACK                                       (if BEGIN ran and COMMIT did not)
//	SELECT … the keys to read on failure          (if any, and the checks failed)
//
// each step running only if the one before it succeeded. A failed check
// sets the NOT NULL column check_ok to NULL, which fails the check
// statement with SQLITE_CONSTRAINT — a robust "raise" outside triggers.
// A Sum on a non-counter sets the NOT NULL value to NULL the same way.
type commitPlan struct {
	steps    []hrana.BatchStep
	check    int // -1 when there are no checks
	bump     int
	firstMut int
	kinds    []mutationKind
	commit   int
	read     *manyRead // nil without keys to read on failure
	readStep int
}

func planCommit(checks []check, muts []mutation, reads []tuple.Key) (*commitPlan, error) {
	p := &commitPlan{check: -1, kinds: make([]mutationKind, len(muts))}
	add := func(stmt hrana.Stmt) int {
		st := hrana.BatchStep{Stmt: stmt}
		if n := len(p.steps); n > 0 {
			st.Condition = hrana.CondOK(uint32(n - 1))
		}
		p.steps = append(p.steps, st)
		return len(p.steps) - 1
	}
	add(hrana.NewStmt(`BEGIN IMMEDIATE`))
	if len(checks) > 0 {
		p.check = add(checkStmt(checks))
	}
	p.bump = add(hrana.NewStmt(`UPDATE coord_meta SET versionstamp = versionstamp + 1 WHERE id = 1 RETURNING versionstamp`))
	p.firstMut = len(p.steps)
	for i, m := range muts {
		p.kinds[i] = m.kind
		add(mutationStmt(m))
	}
	p.commit = add(hrana.NewStmt(`COMMIT`))
	p.steps = append(p.steps, hrana.BatchStep{
		Condition: hrana.CondAnd(*hrana.CondOK(0), *hrana.CondNot(hrana.CondOK(uint32(p.commit)))),
		Stmt:      hrana.NewStmt(`ROLLBACK`),
	})
	if len(reads) > 0 && p.check >= 0 {
		q, err := newManyRead(reads)
		if err != nil {
			return nil, err
		}
		p.read, p.readStep = q, len(p.steps)
		p.steps = append(p.steps, hrana.BatchStep{
			Condition: hrana.CondAnd(*hrana.CondOK(0), *hrana.CondNot(hrana.CondOK(uint32(p.check)))),
			Stmt:      q.stmt,
		})
	}
	return p, nil
}

func checkStmt(checks []check) hrana.Stmt {
	var b strings.Builder
	args := make([]hrana.Value, 0, 2*len(checks))
	b.WriteString(`UPDATE coord_meta SET check_ok = CASE WHEN `)
	for i, c := range checks {
		if i > 0 {
			b.WriteString(` AND `)
		}
		b.WriteString(`coalesce((SELECT versionstamp FROM coord_kv WHERE key = ? AND ` + live + `), 0) = ?`)
		args = append(args, hrana.Blob(c.key), hrana.Integer(int64(c.vs)))
	}
	b.WriteString(` THEN 1 END WHERE id = 1`)
	return noRows(hrana.NewStmt(b.String(), args...))
}

// Mutation statements. ?3 is the expiry in ms from now, NULL for never.
const (
	setSQL = `INSERT INTO coord_kv (key, value, versionstamp, expires_at)
		VALUES (?1, ?2, ` + currentVS + `, ` + nowMS + ` + ?3)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value,
			versionstamp = excluded.versionstamp, expires_at = excluded.expires_at`
	deleteSQL = `DELETE FROM coord_kv WHERE key = ?1`
	// sumSQL adds ?2 (a u64 as int64) modulo 2^64 without letting SQLite
	// overflow to REAL: past the int64 range it adds in two halves of
	// 2^63 each. An expired row counts as absent; a value that is not an
	// integer becomes NULL and so fails the NOT NULL constraint.
	sumSQL = `INSERT INTO coord_kv (key, value, versionstamp, expires_at)
		VALUES (?1, ?2, ` + currentVS + `, NULL)
		ON CONFLICT (key) DO UPDATE SET
		value = CASE
			WHEN coord_kv.expires_at IS NOT NULL AND coord_kv.expires_at <= ` + nowMS + ` THEN excluded.value
			WHEN typeof(coord_kv.value) <> 'integer' THEN NULL
			WHEN excluded.value > 0 AND coord_kv.value > 9223372036854775807 - excluded.value
				THEN (coord_kv.value - 9223372036854775807 - 1) + (excluded.value - 9223372036854775807 - 1)
			WHEN excluded.value < 0 AND coord_kv.value < (-9223372036854775807 - 1) - excluded.value
				THEN (coord_kv.value + 9223372036854775807 + 1) + (excluded.value + 9223372036854775807 + 1)
			ELSE coord_kv.value + excluded.value
		END,
		versionstamp = excluded.versionstamp,
		expires_at = CASE
			WHEN coord_kv.expires_at IS NOT NULL AND coord_kv.expires_at <= ` + nowMS + ` THEN NULL
			ELSE coord_kv.expires_at
		END`
)

func mutationStmt(m mutation) hrana.Stmt {
	exp := hrana.Null()
	if m.expireMS > 0 {
		exp = hrana.Integer(m.expireMS)
	}
	switch m.kind {
	case mutSet:
		return noRows(hrana.NewStmt(setSQL, hrana.Blob(m.key), hrana.Blob(m.value), exp))
	case mutSetU64:
		return noRows(hrana.NewStmt(setSQL, hrana.Blob(m.key), hrana.Integer(int64(m.n)), exp))
	case mutSum:
		return noRows(hrana.NewStmt(sumSQL, hrana.Blob(m.key), hrana.Integer(int64(m.n))))
	default:
		return noRows(hrana.NewStmt(deleteSQL, hrana.Blob(m.key)))
	}
}

func noRows(s hrana.Stmt) hrana.Stmt {
	f := false
	s.WantRows = &f
	return s
}

// result interprets the batch result. retry is true when BEGIN failed
// because the database was busy: nothing ran, so the batch may be resent.
func (p *commitPlan) result(res hrana.BatchResult) (out CommitResult, retry bool, err error) {
	if e := hranaclient.StepError(res, 0); e != nil {
		if isBusy(e) {
			return CommitResult{}, true, fmt.Errorf("begin: %w", e)
		}
		return CommitResult{}, false, fmt.Errorf("atomic commit: begin: %w", e)
	}
	if p.check >= 0 {
		if e := hranaclient.StepError(res, p.check); e != nil {
			if isConstraint(e) {
				return p.failed(res)
			}
			return CommitResult{}, false, fmt.Errorf("atomic commit: checks: %w", e)
		}
	}
	if e := hranaclient.StepError(res, p.bump); e != nil {
		return CommitResult{}, false, fmt.Errorf("atomic commit: versionstamp: %w", e)
	}
	for i, kind := range p.kinds {
		e := hranaclient.StepError(res, p.firstMut+i)
		if e == nil {
			continue
		}
		if kind == mutSum && isConstraint(e) {
			return CommitResult{}, false, fmt.Errorf("atomic commit: mutation %d: %w", i, ErrNotU64)
		}
		return CommitResult{}, false, fmt.Errorf("atomic commit: mutation %d: %w", i, e)
	}
	if e := hranaclient.StepError(res, p.commit); e != nil {
		return CommitResult{}, false, fmt.Errorf("atomic commit: commit: %w", e)
	}
	if !hranaclient.StepRan(res, p.commit) {
		return CommitResult{}, false, fmt.Errorf("atomic commit: COMMIT did not run and no step reported why")
	}
	rows := res.StepResults[p.bump].Rows
	if len(rows) != 1 || len(rows[0]) != 1 || rows[0][0].Kind != hrana.KindInteger {
		return CommitResult{}, false, fmt.Errorf("atomic commit: versionstamp missing from the result")
	}
	return CommitResult{OK: true, Versionstamp: Versionstamp(rows[0][0].Int)}, false, nil
}

// failed is the result of a commit whose checks failed, with the keys to
// read on failure.
func (p *commitPlan) failed(res hrana.BatchResult) (CommitResult, bool, error) {
	if p.read == nil {
		return CommitResult{OK: false}, false, nil
	}
	if e := hranaclient.StepError(res, p.readStep); e != nil {
		return CommitResult{}, false, fmt.Errorf("atomic commit: read after the failed checks: %w", e)
	}
	if !hranaclient.StepRan(res, p.readStep) {
		return CommitResult{}, false, fmt.Errorf("atomic commit: the read after the failed checks did not run")
	}
	read, err := p.read.entries(res.StepResults[p.readStep].Rows)
	if err != nil {
		return CommitResult{}, false, fmt.Errorf("atomic commit: %w", err)
	}
	return CommitResult{OK: false, Read: read}, false, nil
}

// isConstraint recognises a constraint violation: "SQLITE_CONSTRAINT" from
// dwk libsql and sqld, possibly an extended name from other servers, or
// SQLite's own message when a server sends no code.
func isConstraint(e *hranaclient.Error) bool {
	return strings.HasPrefix(e.Code, "SQLITE_CONSTRAINT") || strings.Contains(e.Message, "constraint failed")
}

// isBusy recognises a database locked by another connection.
func isBusy(e *hranaclient.Error) bool {
	return strings.HasPrefix(e.Code, "SQLITE_BUSY") || strings.HasPrefix(e.Code, "SQLITE_LOCKED") ||
		strings.Contains(e.Message, "database is locked")
}
