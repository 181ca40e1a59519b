package sqlite

import (
	"fmt"
	"testing"
)

// prepareKept prepares sql from the cache or anew, kept for reuse.
func prepareKept(t *testing.T, c *Conn, sql string) (*Stmt, bool) {
	t.Helper()
	if s := c.Cached(sql); s != nil {
		return s, true
	}
	s, _, err := c.Prepare(sql)
	if err != nil {
		t.Fatal(err)
	}
	s.Keep(sql)
	return s, false
}

func TestCachedStatementsAreResetAndRebound(t *testing.T) {
	c := openTest(t)
	if err := c.Exec("CREATE TABLE t(k INTEGER PRIMARY KEY, v)"); err != nil {
		t.Fatal(err)
	}
	const ins = "INSERT INTO t VALUES (?1, ?2)"
	for i := range 3 {
		s, hit := prepareKept(t, c, ins)
		if hit != (i > 0) {
			t.Fatalf("use %d: cache hit %v", i, hit)
		}
		s.BindInt64(1, int64(i))
		if i < 2 { // the third use leaves ?2 unbound: it must read NULL, not a stale binding
			s.BindText(2, fmt.Sprint("v", i))
		}
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		if err := s.Finalize(); err != nil {
			t.Fatal(err)
		}
	}
	// A statement stopped after its first row is reset, so it neither
	// holds a read transaction nor resumes mid-way.
	const sel = "SELECT k, v FROM t ORDER BY k"
	for range 2 {
		s, _ := prepareKept(t, c, sel)
		if row, err := s.Step(); err != nil || !row || s.ColumnInt64(0) != 0 {
			t.Fatalf("first row: %v %v %d", row, err, s.ColumnInt64(0))
		}
		s.Finalize()
	}
	if !c.Autocommit() {
		t.Fatal("not in autocommit mode")
	}
	got, err := c.QueryInt64s("SELECT count(*) FROM t WHERE v IS NULL AND k = 2")
	if err != nil || got[0] != 1 {
		t.Fatalf("unbound parameter on reuse: %v %v", got, err)
	}
	// A schema change recompiles a cached statement.
	if err := c.Exec("ALTER TABLE t ADD COLUMN w DEFAULT 7"); err != nil {
		t.Fatal(err)
	}
	s, hit := prepareKept(t, c, "SELECT * FROM t WHERE k = 0")
	if hit {
		t.Fatal("unexpected hit")
	}
	s.Finalize()
	s, hit = prepareKept(t, c, "SELECT * FROM t WHERE k = 0")
	if !hit {
		t.Fatal("expected a hit")
	}
	if row, err := s.Step(); err != nil || !row || s.ColumnCount() != 3 {
		t.Fatalf("after ALTER: %v %v, %d columns", row, err, s.ColumnCount())
	}
	s.Finalize()
}

func TestStatementCacheIsBounded(t *testing.T) {
	c := openTest(t)
	for i := range stmtCacheSize + 5 {
		s, _ := prepareKept(t, c, fmt.Sprintf("SELECT %d", i))
		s.Finalize()
	}
	if n := len(c.cache.idle); n != stmtCacheSize {
		t.Fatalf("%d idle statements, want %d", n, stmtCacheSize)
	}
	if c.Cached("SELECT 0") != nil {
		t.Fatal("the least recently used statement was not evicted")
	}
	s := c.Cached(fmt.Sprintf("SELECT %d", stmtCacheSize+4))
	if s == nil {
		t.Fatal("the most recent statement was evicted")
	}
	// Two uses of one text at once get two statements.
	if c.Cached(fmt.Sprintf("SELECT %d", stmtCacheSize+4)) != nil {
		t.Fatal("a statement in use was handed out again")
	}
	s.Finalize()
	if err := c.Close(); err != nil {
		t.Fatalf("close with cached statements: %v", err)
	}
}
