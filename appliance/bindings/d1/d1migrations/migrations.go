package d1migrations

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/dwk/fleet/appliance/worker"
)

// Migrations are the migrations of one D1 database: the files of a
// directory and the tracking table that records which of them were
// applied. The zero Table and Pattern are wrangler's defaults. A
// Migrations holds no state; its methods read the directory and the
// database each time.
type Migrations struct {
	// DB is the database migrated.
	DB worker.D1Backend
	// Dir is the migrations directory (migrations_dir); with FS, the
	// name of FS in messages.
	Dir string
	// FS, when set, holds the migrations instead of Dir (a built
	// project's archive), rooted at the migrations directory.
	FS fs.FS
	// Pattern is the glob, relative to Dir, migration files match
	// (migrations_pattern). Default: DefaultPattern.
	Pattern string
	// Table is the tracking table (migrations_table). Default:
	// DefaultTable.
	Table string
}

// Error is a migration that failed: nothing of it took effect.
type Error struct {
	// File is the migration.
	File File
	// Statement is the failing statement's position in the file, from 1;
	// 0 when the failure is not one statement's (the file could not be
	// read, or the batch failed as a whole).
	Statement int
	// SQL is the failing statement.
	SQL string
	// Err is the SQL error.
	Err error
}

func (e *Error) Error() string {
	where := ""
	if e.Statement > 0 {
		where = fmt.Sprintf(" at statement %d (%s)", e.Statement, shorten(e.SQL, 80))
	}
	return fmt.Sprintf("migration %s failed%s: %v; it was rolled back and the migrations before it stay applied: fix %s and apply again", e.File.Name, where, e.Err, e.File.Path)
}

func (e *Error) Unwrap() error { return e.Err }

func (m Migrations) table() string {
	if m.Table == "" {
		return DefaultTable
	}
	return m.Table
}

// Files returns the migration files, in the order they are applied.
func (m Migrations) Files() ([]File, error) {
	if m.FS != nil {
		return FindFS(m.FS, m.Dir, m.Pattern)
	}
	return Find(m.Dir, m.Pattern)
}

// Applied returns the tracking table's rows in the order they were
// applied (none when the table does not exist), including rows of
// migrations whose files are gone.
func (m Migrations) Applied(ctx context.Context) ([]Applied, error) {
	return readApplied(ctx, m.DB, m.table())
}

// Pending returns the migration files no tracking row names, in the order
// Apply would apply them.
func (m Migrations) Pending(ctx context.Context) ([]File, error) {
	files, err := m.Files()
	if err != nil {
		return nil, err
	}
	applied, err := m.Applied(ctx)
	if err != nil {
		return nil, err
	}
	return pending(files, applied), nil
}

func pending(files []File, applied []Applied) []File {
	done := make(map[string]bool, len(applied))
	for _, a := range applied {
		done[a.Name] = true
	}
	var out []File
	for _, f := range files {
		if !done[f.Name] {
			out = append(out, f)
		}
	}
	return out
}

// Apply creates the tracking table if it is missing and applies the
// pending migrations in order, each in one transaction with its tracking
// row. It calls applied after each one that took effect (nil for none)
// and returns those it applied itself. It stops at the first migration
// that fails, with an *Error; a migration another run applied meanwhile
// is skipped.
func (m Migrations) Apply(ctx context.Context, applied func(File)) ([]File, error) {
	files, err := m.Files()
	if err != nil {
		return nil, err
	}
	table := m.table()
	if _, err := m.DB.Batch(ctx, []worker.D1Query{{SQL: CreateTableSQL(table)}}); err != nil {
		return nil, fmt.Errorf("create migrations table %s: %w", table, err)
	}
	rows, err := readApplied(ctx, m.DB, table)
	if err != nil {
		return nil, err
	}
	var done []File
	for _, f := range pending(files, rows) {
		ok, err := m.applyOne(ctx, table, f)
		if err != nil {
			return done, err
		}
		if ok {
			done = append(done, f)
			if applied != nil {
				applied(f)
			}
		}
	}
	return done, nil
}

// applyOne runs f and its tracking row as one batch. It reports false,
// without error, when f turns out to be applied already.
func (m Migrations) applyOne(ctx context.Context, table string, f File) (bool, error) {
	src, err := f.Read()
	if err != nil {
		return false, &Error{File: f, Err: err}
	}
	stmts, err := Statements(string(src))
	if err != nil {
		return false, &Error{File: f, Err: err}
	}
	batch := make([]worker.D1Query, 0, len(stmts)+1)
	batch = append(batch, worker.D1Query{SQL: "INSERT INTO " + quoteIdent(table) + " (name) VALUES (?)", Args: []any{f.Name}})
	for _, s := range stmts {
		batch = append(batch, worker.D1Query{SQL: s})
	}
	_, err = m.DB.Batch(ctx, batch)
	if err == nil {
		return true, nil
	}
	// The batch may have been applied by another run since the table was
	// read (the tracking row's insert then fails), or by this one with its
	// answer lost: the table says which.
	rows, rerr := readApplied(ctx, m.DB, table)
	if rerr == nil {
		for _, r := range rows {
			if r.Name == f.Name {
				return false, nil
			}
		}
	}
	e := &Error{File: f, Err: err}
	var de *worker.D1Error
	if errors.As(err, &de) {
		e.Err = de.Err
		if de.Index > 0 {
			e.Statement, e.SQL = de.Index, de.SQL
		}
	}
	if rerr != nil {
		e.Err = fmt.Errorf("%w (and reading %s afterwards failed: %v; run migrations list to see whether it was applied)", e.Err, table, rerr)
	}
	return false, e
}

// shorten cuts s to n bytes, on a rune boundary, marking the cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "..."
}
