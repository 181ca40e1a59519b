package objcentral_test

import (
	"fmt"
	"testing"

	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/test/libsqlserver"
)

// TestImportsTheEarlierRowFormat writes an object database the way
// earlier versions did (the object's tables in the primary), opens it,
// and checks that every row, the AUTOINCREMENT counter, indexes, views and
// triggers arrive, that a fresh replica sees the same from the pages, and
// that the old tables are gone from the primary.
func TestImportsTheEarlierRowFormat(t *testing.T) {
	b := newBackend(t, libsqlserver.Start(t))
	store, c := b.objectStore(t)
	ctx := ctxFor(t)
	id := testID("Legacy", "x")
	name := store.Namespace(id)
	if err := b.admin.Create(ctx, name); err != nil {
		t.Fatal(err)
	}
	pc := c.WithNamespace(name)
	for _, q := range []string{
		`CREATE TABLE _dwk_epoch (k INTEGER PRIMARY KEY CHECK (k = 0), epoch INTEGER NOT NULL)`,
		`INSERT INTO _dwk_epoch VALUES (0, 3)`,
		`CREATE TABLE parent (id INTEGER PRIMARY KEY AUTOINCREMENT, v TEXT)`,
		`CREATE TABLE child (p INTEGER REFERENCES parent(id), b BLOB)`,
		`INSERT INTO parent (v) VALUES ('a'), ('b'), ('c')`,
		`DELETE FROM parent WHERE id = 3`,
		`INSERT INTO child VALUES (1, x'00ff'), (2, NULL)`,
		`CREATE INDEX child_p ON child (p)`,
		`CREATE VIEW pairs AS SELECT parent.v, child.b FROM parent JOIN child ON child.p = parent.id`,
		`CREATE TRIGGER log AFTER INSERT ON parent BEGIN INSERT INTO child VALUES (new.id, NULL); END`,
	} {
		if _, err := pc.Execute(ctx, hrana.NewStmt(q)); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db, err := store.Open(ctx, id, newFakeLease(4))
	if err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"SELECT id, v FROM parent ORDER BY id":                                     "[[1 a] [2 b]]",
		"SELECT p, hex(b) FROM child ORDER BY rowid":                               "[[1 00FF] [2 ]]",
		"SELECT count(*) FROM pairs":                                               "[[2]]",
		"SELECT name FROM sqlite_schema WHERE type = 'index' AND name = 'child_p'": "[[child_p]]",
	} {
		if got := fmt.Sprint(mustBatch(t, db, q)[0].Rows); got != want {
			t.Errorf("%s = %s, want %s", q, got, want)
		}
	}
	// The sequence and the trigger came along: a new parent gets id 4
	// (not 3) and a child row.
	mustBatch(t, db, "INSERT INTO parent (v) VALUES ('d')")
	if got := fmt.Sprint(mustBatch(t, db, "SELECT max(id), (SELECT count(*) FROM child) FROM parent")[0].Rows); got != "[[4 3]]" {
		t.Errorf("after an insert: %s, want [[4 3]]", got)
	}
	db.Close()

	fresh, _ := b.objectStore(t)
	db, err = fresh.Open(ctx, id, newFakeLease(5))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := fmt.Sprint(mustBatch(t, db, "SELECT id, v FROM parent ORDER BY id")[0].Rows); got != "[[1 a] [2 b] [4 d]]" {
		t.Errorf("fresh replica: parent = %s", got)
	}
	res, err := pc.Execute(ctx, hrana.NewStmt(`SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE '\_dwk\_%' ESCAPE '\' AND name NOT LIKE 'sqlite\_%' ESCAPE '\'`))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 0 {
		t.Errorf("the primary still holds earlier tables: %v", res.Rows)
	}
	db.Close()

	// The object stays in its own database: opened again where its copy
	// is cached, it has its rows there and none in its pack.
	if db, err = store.Open(ctx, id, newFakeLease(6)); err != nil {
		t.Fatal(err)
	}
	mustBatch(t, db, "INSERT INTO parent (v) VALUES ('e')")
	db.Close()
	res, err = pc.Execute(ctx, hrana.NewStmt(`SELECT epoch FROM _dwk_epoch`))
	if err != nil || fmt.Sprint(res.Rows) != "[[6]]" {
		t.Errorf("epoch in the object's database = %v (%v), want 6", res.Rows, err)
	}
	res, err = b.client(t, store.PackOf(id)).Execute(ctx, hrana.NewStmt(`SELECT count(*) FROM _dwk_object_heads WHERE obj = ?`, hrana.Text(name)))
	if err == nil && fmt.Sprint(res.Rows) != "[[0]]" {
		t.Errorf("the object's pack holds %v heads of it, want none", res.Rows)
	}
}
