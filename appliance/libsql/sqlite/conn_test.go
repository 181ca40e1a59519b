package sqlite

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func openTest(t *testing.T) *Conn {
	t.Helper()
	c, err := Open(filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestRoundTripRawValues(t *testing.T) {
	c := openTest(t)
	if err := c.Exec("CREATE TABLE t(d DATE, i INTEGER, f REAL, b BLOB, x)"); err != nil {
		t.Fatal(err)
	}
	st, _, err := c.Prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.BindText(1, "2024-01-02 03:04:05\x00tail"); err != nil {
		t.Fatal(err)
	}
	st.BindInt64(2, -9223372036854775808)
	st.BindFloat(3, 1.5)
	st.BindBlob(4, []byte{})
	st.BindNull(5)
	if row, err := st.Step(); err != nil || row {
		t.Fatalf("step: %v %v", row, err)
	}
	if st.Readonly() {
		t.Error("INSERT reported read-only")
	}
	st.Finalize()
	if got := c.Changes(); got != 1 {
		t.Errorf("changes = %d, want 1", got)
	}

	st, _, err = c.Prepare("SELECT d, i, f, b, x, 1+1 FROM t")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Finalize()
	if !st.Readonly() {
		t.Error("SELECT not read-only")
	}
	if row, err := st.Step(); err != nil || !row {
		t.Fatalf("step: %v %v", row, err)
	}
	if got, want := st.ColumnText(0), "2024-01-02 03:04:05\x00tail"; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
	if got := st.ColumnInt64(1); got != -9223372036854775808 {
		t.Errorf("int = %d", got)
	}
	if got := st.ColumnType(3); got != TypeBlob {
		t.Errorf("empty blob has type %d", got)
	}
	if got := st.ColumnBlob(3); got == nil || len(got) != 0 {
		t.Errorf("blob = %#v, want empty non-nil", got)
	}
	if got := st.ColumnType(4); got != TypeNull {
		t.Errorf("null column type = %d", got)
	}
	if d, ok := st.ColumnDecltype(0); !ok || d != "DATE" {
		t.Errorf("decltype = %q %v", d, ok)
	}
	if _, ok := st.ColumnDecltype(5); ok {
		t.Error("expression has a decltype")
	}
}

func TestPrepareSplitsStatements(t *testing.T) {
	c := openTest(t)
	sql := "CREATE TABLE a(x); -- c\n CREATE TRIGGER tr AFTER INSERT ON a BEGIN SELECT 1; SELECT 2; END; /* end */ ;"
	var n int
	for {
		st, tail, err := c.Prepare(sql)
		if err != nil {
			t.Fatalf("prepare %q: %v", sql, err)
		}
		if st == nil {
			break
		}
		n++
		if _, err := st.Step(); err != nil {
			t.Fatal(err)
		}
		st.Finalize()
		sql = tail
	}
	if n != 2 {
		t.Errorf("ran %d statements, want 2", n)
	}
}

func TestSyntaxErrorOffset(t *testing.T) {
	c := openTest(t)
	_, _, err := c.Prepare("SELECT 1; SELEC 2")
	if err != nil {
		t.Fatalf("first statement should prepare: %v", err)
	}
	_, _, err = c.Prepare("SELEC 2")
	var se *Error
	if !errors.As(err, &se) || se.Primary() != CodeError || se.Offset != 0 || !strings.Contains(se.Message, "syntax error") {
		t.Fatalf("err = %#v", err)
	}
}

func TestInterrupt(t *testing.T) {
	c := openTest(t)
	st, _, err := c.Prepare("WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r) SELECT count(*) FROM r")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Finalize()
	timer := time.AfterFunc(50*time.Millisecond, c.Interrupt)
	defer timer.Stop()
	_, err = st.Step()
	var se *Error
	if !errors.As(err, &se) || se.Primary() != CodeInterrupt {
		t.Fatalf("err = %v, want SQLITE_INTERRUPT", err)
	}
	// A late interrupt must not hit the next statement.
	c.Interrupt()
	st.Finalize()
	if got, err := c.QueryInt64s("SELECT 7"); err != nil || len(got) != 1 || got[0] != 7 {
		t.Fatalf("after interrupt: %v %v", got, err)
	}
}

func TestAutocommit(t *testing.T) {
	c := openTest(t)
	if !c.Autocommit() {
		t.Fatal("new connection not in autocommit")
	}
	if err := c.Exec("BEGIN"); err != nil {
		t.Fatal(err)
	}
	if c.Autocommit() {
		t.Fatal("autocommit inside BEGIN")
	}
	if err := c.Exec("ROLLBACK"); err != nil {
		t.Fatal(err)
	}
}

func TestResetAndClearBindings(t *testing.T) {
	c := openTest(t)
	st, _, err := c.Prepare("SELECT ?")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Finalize()
	st.BindInt64(1, 7)
	for _, want := range []typed{{TypeInteger, 7}, {TypeInteger, 7}} {
		if row, err := st.Step(); err != nil || !row {
			t.Fatalf("step: %v %v", row, err)
		}
		if got := (typed{st.ColumnType(0), st.ColumnInt64(0)}); got != want {
			t.Errorf("after Reset: %v, want %v (bindings kept)", got, want)
		}
		if err := st.Reset(); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.ClearBindings(); err != nil {
		t.Fatal(err)
	}
	if row, err := st.Step(); err != nil || !row || st.ColumnType(0) != TypeNull {
		t.Errorf("after ClearBindings: row %v, err %v, type %d; want NULL", row, err, st.ColumnType(0))
	}
}

// typed is a column's storage class and integer value.
type typed struct {
	class int
	value int64
}

func TestDisableDoubleQuotedStrings(t *testing.T) {
	c := openTest(t)
	if got, err := c.QueryInt64s(`SELECT "x" = 'x'`); err != nil || len(got) != 1 || got[0] != 1 {
		t.Fatalf(`by default "x" is the string 'x': %v, %v`, got, err)
	}
	if err := c.DisableDoubleQuotedStrings(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Prepare(`SELECT "x"`); err == nil || !strings.Contains(err.Error(), "no such column") {
		t.Errorf(`SELECT "x" with double-quoted strings off: err = %v, want no such column`, err)
	}
}
