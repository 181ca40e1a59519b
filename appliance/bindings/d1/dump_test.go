package d1_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/bindings/d1"
	"github.com/dwk/fleet/appliance/bindings/d1/d1local"
	"github.com/dwk/fleet/appliance/bindings/d1/d1migrations"
	"github.com/dwk/fleet/appliance/worker"
)

func openD1(t *testing.T) *d1local.DB {
	t.Helper()
	db, err := d1local.Open(context.Background(), filepath.Join(t.TempDir(), "db.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// execScript runs a script's statements as one batch.
func execScript(t *testing.T, db worker.D1Backend, script string) {
	t.Helper()
	stmts, err := d1migrations.Statements(script)
	if err != nil {
		t.Fatal(err)
	}
	qs := make([]worker.D1Query, len(stmts))
	for i, s := range stmts {
		qs[i] = worker.D1Query{SQL: s}
	}
	if _, err := db.Batch(context.Background(), qs); err != nil {
		t.Fatal(err)
	}
}

const dumpFixture = `
CREATE TABLE "Quoted Table" (id INTEGER PRIMARY KEY AUTOINCREMENT, v);
CREATE TABLE plain (n INTEGER, r REAL, t TEXT, b BLOB, g INTEGER GENERATED ALWAYS AS (n * 2) VIRTUAL);
CREATE INDEX plain_n ON plain(n);
CREATE VIEW doubled AS SELECT n * 2 AS d FROM plain;
INSERT INTO "Quoted Table" (v) VALUES ('it''s'), (NULL);
INSERT INTO plain (n, r, t, b) VALUES (-7, 100.0, 'two
lines', X'00ff10'), (9007199254740993, 0.5, 'cr' || char(13) || 'and \n literal', NULL);
`

func TestDumpSQL(t *testing.T) {
	db := openD1(t)
	execScript(t, db, dumpFixture)
	tests := []struct {
		name string
		o    d1.DumpOptions
		want string
	}{
		{"everything", d1.DumpOptions{}, `PRAGMA defer_foreign_keys=TRUE;
CREATE TABLE IF NOT EXISTS "Quoted Table" (id INTEGER PRIMARY KEY AUTOINCREMENT, v);
INSERT INTO "Quoted Table" ("id","v") VALUES(1,'it''s');
INSERT INTO "Quoted Table" ("id","v") VALUES(2,NULL);
CREATE TABLE plain (n INTEGER, r REAL, t TEXT, b BLOB, g INTEGER GENERATED ALWAYS AS (n * 2) VIRTUAL);
INSERT INTO "plain" ("n","r","t","b") VALUES(-7,100.0,replace('two\nlines','\n',char(10)),X'00ff10');
INSERT INTO "plain" ("n","r","t","b") VALUES(9007199254740993,0.5,replace('cr\rand \n literal','\r',char(13)),NULL);
DELETE FROM sqlite_sequence;
INSERT INTO "sqlite_sequence" ("name","seq") VALUES('Quoted Table',2);
CREATE INDEX plain_n ON plain(n);
CREATE VIEW doubled AS SELECT n * 2 AS d FROM plain;
`},
		{"schema of one table", d1.DumpOptions{NoData: true, Tables: []string{"plain"}}, `PRAGMA defer_foreign_keys=TRUE;
CREATE TABLE plain (n INTEGER, r REAL, t TEXT, b BLOB, g INTEGER GENERATED ALWAYS AS (n * 2) VIRTUAL);
CREATE INDEX plain_n ON plain(n);
`},
		{"rows only", d1.DumpOptions{NoSchema: true, Tables: []string{"Quoted Table"}}, `PRAGMA defer_foreign_keys=TRUE;
INSERT INTO "Quoted Table" ("id","v") VALUES(1,'it''s');
INSERT INTO "Quoted Table" ("id","v") VALUES(2,NULL);
`},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := d1.Dump(context.Background(), db, &b, tt.o); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := b.String(); got != tt.want {
			t.Errorf("%s: dump =\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}

// TestDumpRoundTrip: a dump run on an empty database dumps the same.
func TestDumpRoundTrip(t *testing.T) {
	src := openD1(t)
	execScript(t, src, dumpFixture)
	var first bytes.Buffer
	if err := d1.Dump(context.Background(), src, &first, d1.DumpOptions{}); err != nil {
		t.Fatal(err)
	}
	dst := openD1(t)
	execScript(t, dst, first.String())
	var second bytes.Buffer
	if err := d1.Dump(context.Background(), dst, &second, d1.DumpOptions{}); err != nil {
		t.Fatal(err)
	}
	if first.String() != second.String() {
		t.Errorf("the dump of the restored database differs:\n%s\nwant\n%s", &second, &first)
	}
	if strings.Contains(first.String(), worker.D1BookmarkTable) {
		t.Errorf("the dump holds dwk's bookmark table:\n%s", &first)
	}
}
