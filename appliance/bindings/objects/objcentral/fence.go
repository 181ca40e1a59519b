package objcentral

import (
	"fmt"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// The epoch of an object's current holder is stored with the object's
// rows (the layout's epoch table, layouts.go). It survives DeleteAll.

// epochOf reads the epoch from the result of epochSelect.
func epochOf(r *hrana.StmtResult) (int64, error) {
	if r == nil || len(r.Rows) != 1 || len(r.Rows[0]) != 1 || r.Rows[0][0].Kind != hrana.KindInteger {
		return 0, fmt.Errorf("the epoch table holds no epoch for the object")
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
