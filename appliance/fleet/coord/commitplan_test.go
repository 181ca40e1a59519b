package coord

import (
	"errors"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// runPlan runs p's steps against a model of a SQLite connection: it keeps
// the transaction and its savepoints, evaluates each step's condition as
// the server does, and fails step i with fail[i]. An error named
// SQLITE_IOERR rolls the whole transaction back, as SQLite does; any
// other rolls back its statement only.
func runPlan(p *commitPlan, fail map[int]string) hrana.BatchResult {
	var res hrana.BatchResult
	var outcomes []hrana.Outcome
	inTx, savepoints, vs := false, 0, int64(10)
	for i, st := range p.steps {
		if st.Condition != nil && !st.Condition.Eval(outcomes, !inTx) {
			res.StepResults, res.StepErrors = append(res.StepResults, nil), append(res.StepErrors, nil)
			outcomes = append(outcomes, hrana.Skipped)
			continue
		}
		sql, code := *st.Stmt.SQL, fail[i]
		switch {
		case code != "":
		case strings.HasPrefix(sql, "BEGIN"):
			inTx = true
		case strings.HasPrefix(sql, "SAVEPOINT"):
			inTx, savepoints = true, savepoints+1
		case strings.HasPrefix(sql, "RELEASE"), strings.HasPrefix(sql, "ROLLBACK TO"):
			if savepoints == 0 {
				code = "SQLITE_ERROR"
			} else if strings.HasPrefix(sql, "RELEASE") {
				savepoints--
			}
		case sql == "COMMIT", sql == "ROLLBACK":
			if !inTx {
				code = "SQLITE_ERROR"
			}
			inTx, savepoints = false, 0
		}
		if code == "SQLITE_IOERR" {
			inTx, savepoints = false, 0
		}
		if code != "" {
			res.StepResults = append(res.StepResults, nil)
			res.StepErrors = append(res.StepErrors, &hrana.Error{Message: code, Code: code})
			outcomes = append(outcomes, hrana.Failed)
			continue
		}
		r := &hrana.StmtResult{}
		if strings.Contains(sql, "RETURNING versionstamp") {
			vs++
			r.Rows = [][]hrana.Value{{hrana.Integer(vs)}}
		}
		res.StepResults, res.StepErrors = append(res.StepResults, r), append(res.StepErrors, nil)
		outcomes = append(outcomes, hrana.Succeeded)
	}
	return res
}

// TestAWholeTransactionRollbackStopsTheRest: when an operation's statement
// makes SQLite roll the whole transaction back, nothing after it runs
// outside the transaction, its own error is reported, and every other
// operation, including one whose check failed on writes that were undone,
// is reported as rolled back (to be committed alone), none as committed
// or as failing its checks.
func TestAWholeTransactionRollbackStopsTheRest(t *testing.T) {
	s := &Store{}
	k := func(name string) tuple.Key { return tuple.Key{name} }
	ops := []*Atomic{
		s.Atomic().Set(k("a"), []byte("1"), 0),
		s.Atomic().Check(k("a"), 0).Set(k("b"), nil, 0).ReadOnFail(k("a")),
		s.Atomic().Set(k("c"), nil, 0),
		s.Atomic().Set(k("d"), nil, 0),
	}
	p, err := planCommit(ops)
	if err != nil {
		t.Fatal(err)
	}
	fail := map[int]string{
		p.ops[1].check:    "SQLITE_CONSTRAINT", // it saw a, written by op 0
		p.ops[2].firstMut: "SQLITE_IOERR",
	}
	out, errs, retry := p.result(runPlan(p, fail))
	if retry {
		t.Fatal("retry")
	}
	for _, i := range []int{0, 1, 3} {
		if !errors.Is(errs[i], errRolledBack) || out[i].OK {
			t.Errorf("operation %d: %+v, %v; want errRolledBack", i, out[i], errs[i])
		}
	}
	if errs[2] == nil || errors.Is(errs[2], errRolledBack) || !strings.Contains(errs[2].Error(), "SQLITE_IOERR") {
		t.Errorf("operation 2: %v; want its own I/O error", errs[2])
	}
}

// TestAStatementErrorIsUndoneByTheSavepoint: an operation's failed write
// that rolls back its statement only is undone by its savepoint; the
// transaction goes on and commits the others.
func TestAStatementErrorIsUndoneByTheSavepoint(t *testing.T) {
	s := &Store{}
	ops := []*Atomic{
		s.Atomic().Set(tuple.Key{"a"}, nil, 0),
		s.Atomic().Set(tuple.Key{"b"}, nil, 0).Sum(tuple.Key{"b"}, 1),
		s.Atomic().Set(tuple.Key{"c"}, nil, 0),
	}
	p, err := planCommit(ops)
	if err != nil {
		t.Fatal(err)
	}
	out, errs, _ := p.result(runPlan(p, map[int]string{p.ops[1].firstMut + 1: "SQLITE_CONSTRAINT"}))
	if !out[0].OK || !out[2].OK || errs[0] != nil || errs[2] != nil {
		t.Fatalf("sound operations: %+v, %v", out, errs)
	}
	if !errors.Is(errs[1], ErrNotU64) {
		t.Errorf("operation 1: %v; want ErrNotU64", errs[1])
	}
}
