package coord

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
)

// commitPlan is the Hrana batch that commits one or more atomic
// operations in one transaction, and the indexes of its steps. The batch
// is:
//
//	BEGIN IMMEDIATE
//	for each operation, in order, each step only if the one before it succeeded:
//	  SAVEPOINT op                                                     (if the previous operation's RELEASE ran)
//	  UPDATE coord_meta SET check_ok = CASE WHEN <its checks> THEN 1 END   (if checks)
//	  UPDATE coord_meta SET versionstamp = versionstamp + 1 … RETURNING
//	  <its mutations, in order>
//	  SELECT … the keys to read on failure                              (if any, and the checks failed)
//	  ROLLBACK TO op                                                   (if the checks held and a write failed)
//	  RELEASE op                                                       (if SAVEPOINT ran, and ROLLBACK TO did not fail)
//	COMMIT        (if the last operation's RELEASE ran)
//	ROLLBACK      (if BEGIN ran and COMMIT did not)
//
// A failed check sets the NOT NULL column check_ok to NULL, which fails
// the check statement with SQLITE_CONSTRAINT — a robust "raise" outside
// triggers — and skips that operation's writes. A Sum on a non-counter
// sets the NOT NULL value to NULL the same way; the savepoint then undoes
// that operation's writes alone. Each operation that commits gets a
// versionstamp of its own: the result is that of committing the
// operations one after another. An error that makes SQLite roll the
// whole transaction back (an I/O error, an interrupted statement, a
// trigger's RAISE(ROLLBACK)) also drops the savepoint, so its RELEASE
// fails and nothing after it runs: no later statement can run outside
// the transaction.
type commitPlan struct {
	steps  []hrana.BatchStep
	ops    []opPlan
	commit int
}

// opPlan holds the step indexes of one operation of a commitPlan.
type opPlan struct {
	savepoint int
	check     int // -1 when there are no checks
	bump      int
	firstMut  int
	kinds     []mutationKind
	last      int       // its last write step: the bump or the last mutation
	read      *manyRead // nil without keys to read on failure
	readStep  int
}

func planCommit(ops []*Atomic) (*commitPlan, error) {
	p := &commitPlan{ops: make([]opPlan, len(ops))}
	add := func(cond *hrana.BatchCond, stmt hrana.Stmt) int {
		p.steps = append(p.steps, hrana.BatchStep{Condition: cond, Stmt: stmt})
		return len(p.steps) - 1
	}
	ok := func(step int) *hrana.BatchCond { return hrana.CondOK(uint32(step)) }
	not := hrana.CondNot
	begin := add(nil, hrana.NewStmt(`BEGIN IMMEDIATE`))
	chain := begin // the step the next operation's SAVEPOINT follows
	for i, a := range ops {
		op := &p.ops[i]
		op.savepoint = add(ok(chain), hrana.NewStmt(`SAVEPOINT op`))
		op.check = -1
		prev := op.savepoint
		if len(a.checks) > 0 {
			op.check = add(ok(prev), checkStmt(a.checks))
			prev = op.check
		}
		op.bump = add(ok(prev), hrana.NewStmt(`UPDATE coord_meta SET versionstamp = versionstamp + 1 WHERE id = 1 RETURNING versionstamp`))
		op.firstMut, op.kinds = len(p.steps), make([]mutationKind, len(a.muts))
		prev = op.bump
		for j, m := range a.muts {
			op.kinds[j] = m.kind
			prev = add(ok(prev), mutationStmt(m))
		}
		op.last = prev
		tried := ok(op.savepoint) // the operation's writes were tried
		if op.check >= 0 {
			tried = ok(op.check)
			if len(a.reads) > 0 {
				q, err := newManyRead(a.reads)
				if err != nil {
					return nil, err
				}
				op.read = q
				op.readStep = add(hrana.CondAnd(*ok(op.savepoint), *not(ok(op.check))), q.stmt)
			}
		}
		undo := add(hrana.CondAnd(*tried, *not(ok(op.last))), hrana.NewStmt(`ROLLBACK TO op`))
		chain = add(hrana.CondAnd(*ok(op.savepoint), *not(hrana.CondError(uint32(undo)))), hrana.NewStmt(`RELEASE op`))
	}
	p.commit = add(ok(chain), hrana.NewStmt(`COMMIT`))
	add(hrana.CondAnd(*ok(begin), *not(ok(p.commit))), hrana.NewStmt(`ROLLBACK`))
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

// errRolledBack is the outcome of an operation that was sound but whose
// transaction did not commit because of something else: an error that
// rolled back the whole transaction before the operation's turn, or
// after it. Nothing of it was written (a failed check's reads may show
// writes that were undone), and committing it alone is safe.
var errRolledBack = errors.New("coord: the transaction was rolled back because of another operation")

// result interprets the batch result, one outcome per operation. retry is
// true when BEGIN failed because the database was busy: nothing ran, so
// the batch may be resent.
func (p *commitPlan) result(res hrana.BatchResult) (out []CommitResult, errs []error, retry bool) {
	out, errs = make([]CommitResult, len(p.ops)), make([]error, len(p.ops))
	if e := hranaclient.StepError(res, 0); e != nil {
		if isBusy(e) {
			return out, errs, true
		}
		for i := range errs {
			errs[i] = fmt.Errorf("atomic commit: begin: %w", e)
		}
		return out, errs, false
	}
	commitErr := hranaclient.StepError(res, p.commit)
	committed := hranaclient.StepRan(res, p.commit)
	earlierWrote := false // an earlier operation of the batch wrote
	for i := range p.ops {
		op := &p.ops[i]
		if i > 0 && hranaclient.StepRan(res, p.ops[i-1].last) {
			earlierWrote = true
		}
		switch {
		case !hranaclient.StepRan(res, op.savepoint):
			if e := hranaclient.StepError(res, op.savepoint); e != nil {
				errs[i] = fmt.Errorf("atomic commit: savepoint: %w", e)
			} else {
				errs[i] = errRolledBack // an earlier operation stopped the transaction
			}
			continue
		case op.check >= 0 && !hranaclient.StepRan(res, op.check):
			e := hranaclient.StepError(res, op.check)
			switch {
			case e == nil:
				errs[i] = fmt.Errorf("atomic commit: the checks did not run and no step reported why")
			case !isConstraint(e):
				errs[i] = fmt.Errorf("atomic commit: checks: %w", e)
			case committed || !earlierWrote:
				// What the check and its reads saw was committed before.
				out[i], errs[i] = op.failed(res)
			default:
				// What the failed check and its reads saw was undone.
				errs[i] = errRolledBack
			}
			continue
		}
		if err := op.writeError(res); err != nil {
			errs[i] = err // its savepoint undid its writes
			continue
		}
		switch {
		case commitErr != nil:
			errs[i] = fmt.Errorf("atomic commit: commit: %w", commitErr)
		case !committed:
			errs[i] = errRolledBack
		default:
			out[i], errs[i] = op.committed(res)
		}
	}
	return out, errs, false
}

// writeError is the error of the operation's versionstamp bump or of one
// of its mutations, if one failed.
func (op *opPlan) writeError(res hrana.BatchResult) error {
	if e := hranaclient.StepError(res, op.bump); e != nil {
		return fmt.Errorf("atomic commit: versionstamp: %w", e)
	}
	for j, kind := range op.kinds {
		e := hranaclient.StepError(res, op.firstMut+j)
		if e == nil {
			continue
		}
		if kind == mutSum && isConstraint(e) {
			return fmt.Errorf("atomic commit: mutation %d: %w", j, ErrNotU64)
		}
		return fmt.Errorf("atomic commit: mutation %d: %w", j, e)
	}
	return nil
}

// committed is the result of an operation whose transaction committed.
func (op *opPlan) committed(res hrana.BatchResult) (CommitResult, error) {
	if !hranaclient.StepRan(res, op.last) {
		return CommitResult{}, fmt.Errorf("atomic commit: a write did not run and no step reported why")
	}
	rows := res.StepResults[op.bump].Rows
	if len(rows) != 1 || len(rows[0]) != 1 || rows[0][0].Kind != hrana.KindInteger {
		return CommitResult{}, fmt.Errorf("atomic commit: versionstamp missing from the result")
	}
	return CommitResult{OK: true, Versionstamp: Versionstamp(rows[0][0].Int)}, nil
}

// failed is the result of an operation whose checks failed, with the keys
// to read on failure.
func (op *opPlan) failed(res hrana.BatchResult) (CommitResult, error) {
	if op.read == nil {
		return CommitResult{OK: false}, nil
	}
	if e := hranaclient.StepError(res, op.readStep); e != nil {
		return CommitResult{}, fmt.Errorf("atomic commit: read after the failed checks: %w", e)
	}
	if !hranaclient.StepRan(res, op.readStep) {
		return CommitResult{}, fmt.Errorf("atomic commit: the read after the failed checks did not run")
	}
	read, err := op.read.entries(res.StepResults[op.readStep].Rows)
	if err != nil {
		return CommitResult{}, fmt.Errorf("atomic commit: %w", err)
	}
	return CommitResult{OK: false, Read: read}, nil
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
