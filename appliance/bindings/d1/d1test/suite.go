// Package d1test is the conformance suite every D1 backend must pass: the
// local SQLite one and the central libSQL one run it unchanged.
//
// The suite uses only the worker API (worker.D1 and worker.D1Backend), so it
// states the behaviour applications rely on and nothing about how a backend
// gets there. Every subtest makes its own uniquely named tables and drops
// them when it ends, so a backend may hand every subtest the same database,
// a shared remote one included.
//
// The contract the suite checks, beyond the worker package's doc comments:
//   - every error from Batch and from the statement methods is a
//     *worker.D1Error whose Index names the failing statement; a batch that
//     fails leaves no trace, and the database stays usable;
//   - a prepared statement holds exactly one SQL statement, takes exactly as
//     many arguments as it has parameters, and may not be transaction
//     control (BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE);
//   - values come back as nil, int64, float64, string or []byte exactly as
//     stored, whatever the column's declared type (no time parsing);
//   - Meta.Changes and Meta.LastRowID are SQLite's, and Changes is 0 for a
//     statement that changed nothing (a SELECT after an INSERT included);
//   - Exec splits statements as SQLite does, stops at the first failure with
//     its index and reports how many statements succeeded;
//   - foreign keys are enforced, as in Cloudflare D1;
//   - Meta.SizeAfter is the database's size after the batch, the same on
//     every result of one batch;
//   - an ended context stops the call, the error matches ctx.Err(), and an
//     interrupted batch is rolled back;
//   - every write, and every query of a session, carries the bookmark
//     after it; bookmarks grow with every commit, and a session started
//     from a bad bookmark runs nothing and says why.
package d1test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

// Run runs the suite. open returns the backend a subtest uses, and is called
// once per subtest; it registers the backend's closing with t.Cleanup.
func Run(t *testing.T, open func(t *testing.T) worker.D1Backend) {
	tests := []struct {
		name string
		run  func(t *testing.T, f *fixture)
	}{
		{"Statements", testStatements},
		{"BindReturnsCopy", testBindReturnsCopy},
		{"Columns", testColumns},
		{"Values", testValues},
		{"StoredValues", testStoredValues},
		{"DeclaredTypesKeepText", testDeclaredTypes},
		{"Meta", testMeta},
		{"FirstColumn", testFirstColumn},
		{"SizeAfter", testSizeAfter},
		{"BatchResults", testBatchResults},
		{"BatchAtomicity", testBatchAtomicity},
		{"Errors", testErrors},
		{"BindErrors", testBindErrors},
		{"ForeignKeys", testForeignKeys},
		{"Exec", testExec},
		{"ExecTransaction", testExecTransaction},
		{"Concurrent", testConcurrent},
		{"ContextCancelled", testContextCancelled},
		{"ContextDeadline", testContextDeadline},
		{"Sessions", testSessions},
		{"SessionBadBookmarks", testSessionBadBookmarks},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := open(t)
			tt.run(t, &fixture{backend: b, db: worker.NewD1(b)})
		})
	}
}

// fixture is what a subtest works with.
type fixture struct {
	backend worker.D1Backend
	db      *worker.D1
}

// table creates a table with a unique name starting with prefix and the
// given column definitions, drops it when the test ends, and returns its name.
func (f *fixture) table(t *testing.T, prefix, columns string) string {
	t.Helper()
	name := fmt.Sprintf("%s_%08x", prefix, rand.Uint32())
	f.exec(t, fmt.Sprintf("CREATE TABLE %s (%s)", name, columns))
	t.Cleanup(func() {
		if _, err := f.backend.Exec(context.Background(), "DROP TABLE IF EXISTS "+name); err != nil {
			t.Errorf("drop %s: %v", name, err)
		}
	})
	return name
}

// exec runs sql with Exec and fails the test on error.
func (f *fixture) exec(t *testing.T, sql string) {
	t.Helper()
	if _, err := f.db.Exec(t.Context(), sql); err != nil {
		t.Fatalf("Exec(%q): %v", sql, err)
	}
}

// all runs sql with args and fails the test on error.
func (f *fixture) all(t *testing.T, sql string, args ...any) worker.D1Result {
	t.Helper()
	r, err := f.db.Prepare(sql).Bind(args...).All(t.Context())
	if err != nil {
		t.Fatalf("All(%q, %v): %v", sql, args, err)
	}
	return r
}

// count returns the number of rows in table.
func (f *fixture) count(t *testing.T, table string) int64 {
	t.Helper()
	r := f.all(t, "SELECT count(*) FROM "+table)
	if len(r.Rows) != 1 || len(r.Rows[0]) != 1 {
		t.Fatalf("count(*) of %s returned %v", table, r.Rows)
	}
	n, ok := r.Rows[0][0].(int64)
	if !ok {
		t.Fatalf("count(*) of %s is %T, want int64", table, r.Rows[0][0])
	}
	return n
}

// wantD1Error checks that err is a *worker.D1Error for statement index.
func wantD1Error(t *testing.T, err error, index int) *worker.D1Error {
	t.Helper()
	var de *worker.D1Error
	if !errors.As(err, &de) {
		t.Fatalf("error = %v (%T), want a *worker.D1Error", err, err)
	}
	if de.Index != index {
		t.Errorf("D1Error.Index = %d, want %d (%v)", de.Index, index, err)
	}
	return de
}

// equalValue reports whether a returned value has the wanted type and value.
func equalValue(got, want any) bool {
	if w, ok := want.([]byte); ok {
		g, ok := got.([]byte)
		return ok && bytes.Equal(g, w)
	}
	if _, ok := got.([]byte); ok {
		return false
	}
	return got == want
}

// equalRows reports whether two row sets are equal value by value.
func equalRows(got, want [][]any) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if len(got[i]) != len(want[i]) {
			return false
		}
		for j := range got[i] {
			if !equalValue(got[i][j], want[i][j]) {
				return false
			}
		}
	}
	return true
}

// equalRow reports whether a First result equals want.
func equalRow(got, want map[string]any) bool {
	if len(got) != len(want) {
		return false
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok || !equalValue(g, w) {
			return false
		}
	}
	return true
}
