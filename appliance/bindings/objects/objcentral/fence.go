package objcentral

import (
	"fmt"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// The epoch of an object's current holder lives in the reserved table
// _dwk_epoch of the object's database, one row. It survives DeleteAll.
const (
	epochSchema = `CREATE TABLE IF NOT EXISTS _dwk_epoch (k INTEGER PRIMARY KEY CHECK (k = 0), epoch INTEGER NOT NULL)`
	// epochRaise stores ?1 unless a higher epoch is stored already.
	epochRaise = `INSERT INTO _dwk_epoch (k, epoch) VALUES (0, ?1)
		ON CONFLICT (k) DO UPDATE SET epoch = excluded.epoch WHERE excluded.epoch > _dwk_epoch.epoch`
	epochSelect = `SELECT epoch FROM _dwk_epoch WHERE k = 0`
	// epochGuard fails with a NOT NULL constraint error unless the stored
	// epoch is exactly ?1 — whether it is higher (a newer holder), lower,
	// or missing — so it stops every later step of its transaction.
	epochGuard = `INSERT INTO _dwk_epoch (k, epoch) SELECT 0, NULL
		WHERE NOT EXISTS (SELECT 1 FROM _dwk_epoch WHERE k = 0 AND epoch = ?1)`
)

// epochOf reads the epoch from the result of epochSelect.
func epochOf(r *hrana.StmtResult) (int64, error) {
	if r == nil || len(r.Rows) != 1 || len(r.Rows[0]) != 1 || r.Rows[0][0].Kind != hrana.KindInteger {
		return 0, fmt.Errorf("_dwk_epoch holds no epoch")
	}
	return r.Rows[0][0].Int, nil
}

// fencedError explains a failed epoch guard.
func fencedError(epoch int64, cause error) error {
	return fmt.Errorf("%w: the database no longer names epoch %d as its holder (%v)", objects.ErrFenced, epoch, cause)
}

// chain turns statements into batch steps that each run only if the step
// before succeeded.
func chain(stmts ...hrana.Stmt) []hrana.BatchStep {
	steps := make([]hrana.BatchStep, len(stmts))
	for i, st := range stmts {
		steps[i].Stmt = st
		if i > 0 {
			steps[i].Condition = hrana.CondOK(uint32(i - 1))
		}
	}
	return steps
}

// rollbackStep rolls back when BEGIN (step begin) ran and COMMIT (step
// commit) did not succeed.
func rollbackStep(begin, commit int) hrana.BatchStep {
	return hrana.BatchStep{
		Condition: hrana.CondAnd(*hrana.CondOK(uint32(begin)), *hrana.CondNot(hrana.CondOK(uint32(commit)))),
		Stmt:      hrana.NewStmt(`ROLLBACK`),
	}
}
