package jsbind_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/bindings/d1/d1local"
	"github.com/dwk/fleet/appliance/jsworker/jsbind"
	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/worker"
)

// newD1 is an isolate whose global DB is a D1 database on a fresh SQLite
// file.
func newD1(t *testing.T) *jsrt.Isolate {
	t.Helper()
	db, err := d1local.Open(context.Background(), filepath.Join(t.TempDir(), "d1.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	iso := newIsolate(t)
	setGlobal(t, iso, "DB", func() goja.Value { return jsbind.D1(iso, worker.NewD1(db)) })
	return iso
}

func TestD1Bind(t *testing.T) {
	iso := newD1(t)
	run(t, iso, []evalCase{
		{name: "values by type", js: `
			await DB.exec("CREATE TABLE t (v)");
			const vals = [null, 1, -7, 1.5, "s", true, false, new Uint8Array([1, 2, 3]), new Uint8Array([9, 4, 5]).subarray(1).buffer, new Int16Array([258]), [6, 7], []];
			for (const v of vals) await DB.prepare("INSERT INTO t VALUES (?)").bind(v).run();
			return (await DB.prepare("SELECT v, typeof(v) AS t FROM t ORDER BY rowid").all()).results;`,
			want: `[{"t":"null","v":null},{"t":"integer","v":1},{"t":"integer","v":-7},{"t":"real","v":1.5},{"t":"text","v":"s"},` +
				`{"t":"integer","v":1},{"t":"integer","v":0},{"t":"blob","v":[1,2,3]},{"t":"blob","v":[9,4,5]},{"t":"blob","v":[2,1]},{"t":"blob","v":[6,7]},{"t":"blob","v":[]}]`},
		{name: "positional parameters", js: `
			return await DB.prepare("SELECT ?2 AS b, ?1 AS a").bind("one", "two").first();`,
			want: `{"a":"one","b":"two"}`},
		{name: "bind returns a new statement", js: `
			const s = DB.prepare("SELECT ? AS v");
			const a = s.bind(1), b = s.bind(2);
			return [await a.first("v"), await b.first("v"), a !== s, s.params, a.params];`,
			want: `[1,2,true,[],[1]]`},
		{name: "undefined", js: `DB.prepare("SELECT ?").bind(undefined)`,
			wantErr: "D1_TYPE_ERROR: Type 'undefined' not supported for value 'undefined'"},
		{name: "bigint", js: `DB.prepare("SELECT ?").bind(1n)`,
			wantErr: "D1_TYPE_ERROR: Type 'bigint' not supported for value '1'"},
		{name: "object", js: `DB.prepare("SELECT ?").bind({a: 1})`,
			wantErr: "D1_TYPE_ERROR: Type 'object' not supported for value '[object Object]'"},
		{name: "array of non-bytes", js: `DB.prepare("SELECT ?").bind([1, 256])`,
			wantErr: "D1_TYPE_ERROR: Type 'object' not supported for value '1,256'"},
		{name: "the error is thrown by bind", js: `
			try { DB.prepare("SELECT ?").bind(undefined); return "no error"; } catch (e) { return [e.constructor.name, e.cause.message]; }`,
			want: `["Error","Type 'undefined' not supported for value 'undefined'"]`},
		{name: "wrong parameter count", js: `await DB.prepare("SELECT ?, ?").bind(1).all()`,
			wantErr: "D1_ERROR: "},
	})
}

func TestD1Results(t *testing.T) {
	iso := newD1(t)
	run(t, iso, []evalCase{
		{name: "create", js: `
			const r = await DB.prepare("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, score REAL)").run();
			return [r.success, r.results, r.meta.changed_db, r.meta.changes];`,
			want: `[true,[],true,0]`},
		{name: "insert meta", js: `
			const r = await DB.prepare("INSERT INTO users (name, score) VALUES (?, ?), (?, ?)").bind("ann", 1.5, "bob", 2).run();
			const m = r.meta;
			return [r.success, r.results, m.changes, m.last_row_id, m.changed_db, m.rows_written, m.served_by, m.served_by_primary,
				typeof m.duration, m.timings.sql_duration_ms === m.duration, m.size_after > 0, Object.keys(r)];`,
			want: `[true,[],2,2,true,2,"dwk.d1",true,"number",true,true,["success","meta","results"]]`},
		{name: "select meta", js: `
			const {meta} = await DB.prepare("SELECT * FROM users").all();
			return [meta.changes, meta.changed_db, meta.rows_read, meta.rows_written];`,
			want: `[0,false,2,0]`},
		{name: "all", js: `return (await DB.prepare("SELECT id, name, score FROM users ORDER BY id").all()).results;`,
			want: `[{"id":1,"name":"ann","score":1.5},{"id":2,"name":"bob","score":2}]`},
		{name: "run is all", js: `return (await DB.prepare("SELECT name FROM users WHERE id = ?").bind(2).run()).results;`,
			want: `[{"name":"bob"}]`},
		{name: "first", js: `return await DB.prepare("SELECT name, score FROM users ORDER BY id").first();`,
			want: `{"name":"ann","score":1.5}`},
		{name: "first column", js: `return await DB.prepare("SELECT name, score FROM users ORDER BY id DESC").first("name");`,
			want: `"bob"`},
		{name: "first null column", js: `return await DB.prepare("SELECT NULL AS n").first("n");`,
			want: `null`},
		{name: "first of no rows", js: `return [await DB.prepare("SELECT * FROM users WHERE id = 99").first(), await DB.prepare("SELECT * FROM users WHERE id = 99").first("nope")];`,
			want: `[null,null]`},
		{name: "first of a missing column", js: `await DB.prepare("SELECT name FROM users").first("nope")`,
			wantErr: "D1_COLUMN_NOTFOUND: Column not found (nope)"},
		{name: "raw", js: `return await DB.prepare("SELECT id, name FROM users ORDER BY id").raw();`,
			want: `[[1,"ann"],[2,"bob"]]`},
		{name: "raw with column names", js: `return await DB.prepare("SELECT id, name FROM users ORDER BY id").raw({columnNames: true});`,
			want: `[["id","name"],[1,"ann"],[2,"bob"]]`},
		{name: "raw with column names and no rows", js: `return await DB.prepare("SELECT id, name FROM users WHERE id = 0").raw({columnNames: true});`,
			want: `[["id","name"]]`},
		{name: "raw keeps duplicate columns", js: `return await DB.prepare("SELECT 1 AS a, 2 AS a").raw({columnNames: true});`,
			want: `[["a","a"],[1,2]]`},
		{name: "an SQL error", js: `await DB.prepare("SELECT * FROM nope").all()`,
			wantErr: "D1_ERROR: no such table: nope"},
		{name: "the error's cause", js: `
			try { await DB.prepare("SELEC 1").all(); } catch (e) { return [e.message, e.cause.message]; }`,
			want: `["D1_ERROR: near \"SELEC\": syntax error (1)","near \"SELEC\": syntax error (1)"]`},
		{name: "dump", js: `await DB.dump()`, wantErr: "D1_DUMP_ERROR: "},
		{name: "string tags", js: `return [String(DB), String(DB.prepare("SELECT 1")), String(DB.withSession())];`,
			want: `["[object D1Database]","[object D1PreparedStatement]","[object D1DatabaseSession]"]`},
	})
}

func TestD1Batch(t *testing.T) {
	iso := newD1(t)
	run(t, iso, []evalCase{
		{name: "results in order", js: `
			const rs = await DB.batch([
				DB.prepare("CREATE TABLE t (n INTEGER)"),
				DB.prepare("INSERT INTO t VALUES (?)").bind(1),
				DB.prepare("INSERT INTO t VALUES (?)").bind(2),
				DB.prepare("SELECT sum(n) AS s FROM t"),
			]);
			return rs.map((r) => [r.success, r.results, r.meta.changes]);`,
			want: `[[true,[],0],[true,[],1],[true,[],1],[true,[{"s":3}],0]]`},
		{name: "a failing statement rolls the batch back", js: `
			let msg;
			try {
				await DB.batch([
					DB.prepare("INSERT INTO t VALUES (?)").bind(3),
					DB.prepare("DELETE FROM t WHERE n = 1"),
					DB.prepare("INSERT INTO missing VALUES (1)"),
				]);
			} catch (e) { msg = e.message; }
			return [msg, await DB.prepare("SELECT group_concat(n) AS ns FROM t").first("ns")];`,
			want: `["D1_ERROR: no such table: missing (1)","1,2"]`},
		{name: "a statement that cannot bind fails before the batch runs", js: `
			await DB.batch([DB.prepare("INSERT INTO t VALUES (?)").bind(3), DB.prepare("SELECT ?, ?").bind(1)]);`,
			wantErr: "D1_ERROR: d1: wrong number of bound arguments"},
		{name: "nothing was inserted", js: `return await DB.prepare("SELECT count(*) AS c FROM t").first("c");`,
			want: `2`},
		{name: "empty", js: `return await DB.batch([]);`, want: `[]`},
		{name: "not an array", js: `await DB.batch(DB.prepare("SELECT 1"))`, wantErr: "TypeError: batch() takes an array"},
		{name: "not statements", js: `await DB.batch(["SELECT 1"])`, wantErr: "TypeError: batch() takes an array"},
	})
}

func TestD1Exec(t *testing.T) {
	iso := newD1(t)
	run(t, iso, []evalCase{
		{name: "counts statements", js: `
			const r = await DB.exec("CREATE TABLE e (x);\nINSERT INTO e VALUES (1);\nINSERT INTO e VALUES (2);");
			return [r.count, typeof r.duration, await DB.prepare("SELECT count(*) AS c FROM e").first("c")];`,
			want: `[3,"number",2]`},
		{name: "empty", js: `return (await DB.exec("")).count;`, want: `0`},
		{name: "names the failing statement", js: `
			try { await DB.exec("INSERT INTO e VALUES (3);\nINSERT INTO nope VALUES (4);\nINSERT INTO e VALUES (5)"); }
			catch (e) { return [e.message, e.cause.message]; }`,
			want: `["D1_EXEC_ERROR: Error in line 2: INSERT INTO nope VALUES (4);: no such table: nope (1)","Error in line 2: INSERT INTO nope VALUES (4);: no such table: nope (1)"]`},
		{name: "statements before the failure took effect", js: `return await DB.prepare("SELECT group_concat(x) AS xs FROM e").first("xs");`,
			want: `"1,2,3"`},
	})
}

func TestD1Sessions(t *testing.T) {
	iso := newD1(t)
	run(t, iso, []evalCase{
		{name: "no bookmark before a query", js: `
			return [DB.withSession().getBookmark(), DB.withSession("first-primary").getBookmark(), DB.withSession("  first-unconstrained ").getBookmark()];`,
			want: `[null,null,null]`},
		{name: "a write gives a bookmark", js: `
			const s = DB.withSession("first-primary");
			await s.batch([s.prepare("CREATE TABLE k (v)"), s.prepare("INSERT INTO k VALUES ('a')")]);
			globalThis.bm = s.getBookmark();
			return /^[0-9a-f]{16}-[0-9a-f]{16}-[0-9a-f]{8}$/.test(bm);`,
			want: `true`},
		{name: "bookmarks advance", js: `
			const s = DB.withSession(bm);
			const before = s.getBookmark();
			await s.prepare("INSERT INTO k VALUES (?)").bind("b").run();
			const after = s.getBookmark();
			return [before === bm, after > bm, await s.prepare("SELECT group_concat(v) AS v FROM k").first("v")];`,
			want: `[true,true,"a,b"]`},
		{name: "a session started from a bookmark sees its writes", js: `
			return (await DB.withSession(bm).prepare("SELECT v FROM k ORDER BY rowid").raw()).flat();`,
			want: `["a","b"]`},
		{name: "a statement prepared on the database runs in a session's batch", js: `
			const s = DB.withSession();
			const [r] = await s.batch([DB.prepare("SELECT count(*) AS c FROM k")]);
			return [r.results[0].c, s.getBookmark() !== null];`,
			want: `[2,true]`},
		{name: "a malformed bookmark", js: `await DB.withSession("not-a-bookmark").prepare("SELECT 1").all()`,
			wantErr: "D1_ERROR: d1: malformed bookmark"},
	})
}
