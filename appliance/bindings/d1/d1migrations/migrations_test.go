package d1migrations

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/dwk/fleet/appliance/bindings/d1/d1local"
	"github.com/dwk/fleet/appliance/worker"
)

// openDB opens a fresh d1local database that closes when the test ends.
func openDB(t *testing.T) *d1local.DB {
	t.Helper()
	db, err := d1local.Open(context.Background(), filepath.Join(t.TempDir(), "db.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// query runs one statement and returns its rows.
func query(t *testing.T, db worker.D1Backend, sql string, args ...any) [][]any {
	t.Helper()
	res, err := db.Batch(context.Background(), []worker.D1Query{{SQL: sql, Args: args}})
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return res[0].Rows
}

func appliedNames(t *testing.T, m Migrations) []string {
	t.Helper()
	rows, err := m.Applied(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, r := range rows {
		out = append(out, r.Name)
	}
	return out
}

var twoMigrations = map[string]string{
	"0001_notes.sql": "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);\nINSERT INTO notes (body) VALUES ('first');\n",
	"0002_tags.sql":  "-- tags for notes\nCREATE TABLE tags (note INTEGER REFERENCES notes(id), tag TEXT);\nCREATE INDEX tags_note ON tags(note);\n",
}

func TestApply(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, twoMigrations)
	db := openDB(t)
	m := Migrations{DB: db, Dir: dir}
	ctx := context.Background()

	pend, err := m.Pending(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(pend), []string{"0001_notes.sql", "0002_tags.sql"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Pending before Apply = %q, want %q", got, want)
	}
	if got := appliedNames(t, m); len(got) != 0 {
		t.Fatalf("Applied before Apply = %q, want none (and no table)", got)
	}

	var seen []string
	done, err := m.Apply(ctx, func(f File) { seen = append(seen, f.Name) })
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"0001_notes.sql", "0002_tags.sql"}
	if got := names(done); !reflect.DeepEqual(got, want) {
		t.Errorf("Apply = %q, want %q", got, want)
	}
	if !reflect.DeepEqual(seen, want) {
		t.Errorf("Apply called applied with %q, want %q", seen, want)
	}
	rows, err := m.Applied(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stamp := regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$`)
	for i, r := range rows {
		if r.ID != int64(i+1) || r.Name != want[i] || !stamp.MatchString(r.AppliedAt) {
			t.Errorf("row %d = %+v, want id %d, name %s, applied_at like 2006-01-02 15:04:05", i, r, i+1, want[i])
		}
	}
	if got := query(t, db, "SELECT body FROM notes"); !reflect.DeepEqual(got, [][]any{{"first"}}) {
		t.Errorf("notes = %v, want the row the first migration inserted", got)
	}

	done, err = m.Apply(ctx, nil)
	if err != nil || len(done) != 0 {
		t.Errorf("second Apply = %q, %v; want nothing applied", names(done), err)
	}
	if got := appliedNames(t, m); !reflect.DeepEqual(got, want) {
		t.Errorf("Applied after the second Apply = %q, want %q", got, want)
	}
}

// TestWranglerTable: a database wrangler migrated (its table made by an
// older wrangler, unquoted, and its rows as wrangler inserts them) is
// recognised, and the table dwk makes is wrangler's.
func TestWranglerTable(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, twoMigrations)
	db := openDB(t)
	ctx := context.Background()
	if _, err := db.Exec(ctx, `
		CREATE TABLE IF NOT EXISTS d1_migrations
		(
			id         INTEGER PRIMARY KEY AUTOINCREMENT,
			name       TEXT UNIQUE,
			applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
		);
		CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
		INSERT INTO notes (body) VALUES ('first');
		INSERT INTO d1_migrations (name) values ('0001_notes.sql');`); err != nil {
		t.Fatal(err)
	}
	m := Migrations{DB: db, Dir: dir}
	done, err := m.Apply(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(done), []string{"0002_tags.sql"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Apply on a wrangler-migrated database = %q, want %q", got, want)
	}

	fresh := openDB(t)
	if _, err := (Migrations{DB: fresh, Dir: dir}).Apply(ctx, nil); err != nil {
		t.Fatal(err)
	}
	got := query(t, fresh, "SELECT sql FROM sqlite_master WHERE name = 'd1_migrations'")
	want := "CREATE TABLE \"d1_migrations\"(\n\t\tid         INTEGER PRIMARY KEY AUTOINCREMENT,\n\t\tname       TEXT UNIQUE,\n\t\tapplied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL\n)"
	if len(got) != 1 || got[0][0] != want {
		t.Errorf("tracking table = %q, want wrangler's %q", got, want)
	}
}

func TestApplyCustomTableAndPattern(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"0001_init/migration.sql": "CREATE TABLE a (x);",
		"0002_more/migration.sql": "CREATE TABLE b (x);",
		"0002_more/snapshot.json": "{}",
	})
	db := openDB(t)
	m := Migrations{DB: db, Dir: dir, Pattern: "*/migration.sql", Table: `my "migrations"`}
	if _, err := m.Apply(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if got, want := appliedNames(t, m), []string{"0001_init/migration.sql", "0002_more/migration.sql"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Applied = %q, want %q", got, want)
	}
	if got := query(t, db, "SELECT count(*) FROM sqlite_master WHERE name = 'd1_migrations'"); got[0][0] != int64(0) {
		t.Errorf("d1_migrations exists; want only the configured table")
	}
}

func TestApplyStopsAtFailure(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"0001_ok.sql":    "CREATE TABLE ok (x);",
		"0002_bad.sql":   "CREATE TABLE half (x);\nINSERT INTO missing VALUES (1);\n",
		"0003_later.sql": "CREATE TABLE later (x);",
	})
	db := openDB(t)
	m := Migrations{DB: db, Dir: dir}
	done, err := m.Apply(context.Background(), nil)
	if got, want := names(done), []string{"0001_ok.sql"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Apply applied %q, want %q", got, want)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("Apply error = %v, want an *Error", err)
	}
	if e.File.Name != "0002_bad.sql" || e.Statement != 2 || e.SQL != "INSERT INTO missing VALUES (1);" {
		t.Errorf("error names %s statement %d (%q), want 0002_bad.sql statement 2 (the INSERT)", e.File.Name, e.Statement, e.SQL)
	}
	for _, want := range []string{"0002_bad.sql", "statement 2", "no such table: missing", "fix "} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	tables := query(t, db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('ok', 'half', 'later') ORDER BY name")
	if !reflect.DeepEqual(tables, [][]any{{"ok"}}) {
		t.Errorf("tables = %v, want only ok: the failed migration rolled back, the later one not run", tables)
	}
	if got, want := appliedNames(t, m), []string{"0001_ok.sql"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Applied = %q, want %q", got, want)
	}
}

// TestConcurrentApply: runs racing on one database apply each migration
// once, and none fails.
func TestConcurrentApply(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for _, n := range []string{"0001_a", "0002_b", "0003_c", "0004_d", "0005_e"} {
		files[n+".sql"] = "CREATE TABLE t" + n + " (x);"
	}
	writeFiles(t, dir, files)
	path := filepath.Join(t.TempDir(), "shared.sqlite")
	const runs = 4
	var wg sync.WaitGroup
	total := make([]int, runs)
	errs := make([]error, runs)
	for i := range runs {
		db, err := d1local.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		wg.Add(1)
		go func() {
			defer wg.Done()
			done, err := Migrations{DB: db, Dir: dir}.Apply(context.Background(), nil)
			total[i], errs[i] = len(done), err
		}()
	}
	wg.Wait()
	sum := 0
	for i := range runs {
		if errs[i] != nil {
			t.Errorf("run %d: %v", i, errs[i])
		}
		sum += total[i]
	}
	if sum != len(files) {
		t.Errorf("the runs applied %d migrations in all, want %d (each once)", sum, len(files))
	}
	check, err := d1local.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer check.Close()
	if got := query(t, check, "SELECT count(*), count(DISTINCT name) FROM d1_migrations"); !reflect.DeepEqual(got, [][]any{{int64(5), int64(5)}}) {
		t.Errorf("tracking rows (all, distinct) = %v, want 5 and 5", got)
	}
}

func TestApplyUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"0001_tx.sql": "BEGIN TRANSACTION;\nCOMMIT;\nBEGIN TRANSACTION;\nCOMMIT;\n"})
	_, err := Migrations{DB: openDB(t), Dir: dir}.Apply(context.Background(), nil)
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrTransactions) || e.File.Name != "0001_tx.sql" {
		t.Errorf("Apply = %v, want an *Error for 0001_tx.sql wrapping ErrTransactions", err)
	}
}
