package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/dwk/fleet/appliance/bindings/d1/d1migrations"
)

const migrationsUsage = "DB [--local [--data-dir DIR]] [--config FILE]"

func runD1MigrationsList(args []string, stdout, stderr io.Writer) int {
	const name = "d1 migrations list"
	fs := newFlagSet(name, migrationsUsage,
		"Lists the migrations of DB (its binding or its database name): those its tracking table records as applied, then the files of its\n"+
			"migrations_dir that are still to apply, as `wrangler d1 migrations list` does.", stderr)
	var sf storeFlags
	sf.register(fs)
	pos, code := parseArgs(fs, args, 1, 1)
	if code >= 0 {
		return code
	}
	ctx, cancel := commandContext()
	defer cancel()
	t, ref, db, err := sf.openD1(ctx, pos[0], stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	defer t.close()
	m := d1migrations.Migrations{DB: db, Dir: ref.dir, FS: ref.fsys, Pattern: ref.pattern, Table: ref.table}
	files, err := m.Files()
	if err != nil {
		return fail(stderr, name, err)
	}
	applied, err := m.Applied(ctx)
	if err != nil {
		return fail(stderr, name, err)
	}
	fmt.Fprintf(stderr, "🌀 Migrations of database %s on %s, from %s:\n", ref.label, t.where, ref.dir)
	if len(applied) > 0 {
		rows := make([][]string, len(applied))
		for i, a := range applied {
			rows[i] = []string{a.Name, a.AppliedAt}
		}
		fmt.Fprintln(stdout, "Migrations applied:")
		writeTable(stdout, []string{"Name", "Applied at"}, rows)
	}
	pending := pendingOf(files, applied)
	if len(pending) == 0 {
		fmt.Fprintln(stdout, "✅ No migrations to apply!")
		return 0
	}
	fmt.Fprintln(stdout, "Migrations to be applied:")
	writeTable(stdout, []string{"Name"}, nameRows(pending))
	return 0
}

func runD1MigrationsApply(args []string, stdout, stderr io.Writer) int {
	const name = "d1 migrations apply"
	fs := newFlagSet(name, migrationsUsage+" [--force]",
		"Applies the pending migrations of DB (its binding or its database name) in order, each in one transaction with the row that\n"+
			"records it in the tracking table, as `wrangler d1 migrations apply` does. A failing migration stops the run: it is rolled back,\n"+
			"those before it stay applied. Safe while dwk serve or a fleet's replicas run, and while another apply runs: each migration\n"+
			"is applied once.", stderr)
	var sf storeFlags
	sf.register(fs)
	force := fs.Bool("force", false, "apply without asking (dwk asks only when stdin is a terminal)")
	pos, code := parseArgs(fs, args, 1, 1)
	if code >= 0 {
		return code
	}
	ctx, cancel := commandContext()
	defer cancel()
	t, ref, db, err := sf.openD1(ctx, pos[0], stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	defer t.close()
	m := d1migrations.Migrations{DB: db, Dir: ref.dir, FS: ref.fsys, Pattern: ref.pattern, Table: ref.table}
	pending, err := m.Pending(ctx)
	if err != nil {
		return fail(stderr, name, err)
	}
	fmt.Fprintf(stderr, "🌀 Migrations of database %s on %s, from %s:\n", ref.label, t.where, ref.dir)
	if len(pending) == 0 {
		fmt.Fprintln(stdout, "✅ No migrations to apply!")
		return 0
	}
	fmt.Fprintln(stdout, "Migrations to be applied:")
	writeTable(stdout, []string{"name"}, nameRows(pending))
	if !*force && !confirm(stderr, fmt.Sprintf("About to apply %d migration(s) to %s. Continue?", len(pending), t.where)) {
		fmt.Fprintln(stderr, "Not applying.")
		return 1
	}
	status := map[string]string{}
	done, err := m.Apply(ctx, func(f d1migrations.File) { status[f.Name] = "✅" })
	rows := make([][]string, len(pending))
	for i, f := range pending {
		s, ok := status[f.Name]
		switch {
		case ok:
		case err != nil && failedFile(err) == f.Name:
			s = "❌"
		case err == nil:
			s = "✅ (by another run)"
		default:
			s = "🕒️"
		}
		rows[i] = []string{f.Name, s}
	}
	writeTable(stdout, []string{"name", "status"}, rows)
	if err != nil {
		return fail(stderr, name, fmt.Errorf("%w%s", err, d1Hint(err)))
	}
	fmt.Fprintf(stderr, "🚣 Applied %d migration%s.\n", len(done), plural(len(done)))
	return 0
}

// failedFile is the name of the migration err is about, if any.
func failedFile(err error) string {
	var e *d1migrations.Error
	if errors.As(err, &e) {
		return e.File.Name
	}
	return ""
}

// pendingOf returns the files no applied row names.
func pendingOf(files []d1migrations.File, applied []d1migrations.Applied) []d1migrations.File {
	done := map[string]bool{}
	for _, a := range applied {
		done[a.Name] = true
	}
	var out []d1migrations.File
	for _, f := range files {
		if !done[f.Name] {
			out = append(out, f)
		}
	}
	return out
}

func nameRows(files []d1migrations.File) [][]string {
	rows := make([][]string, len(files))
	for i, f := range files {
		rows[i] = []string{f.Name}
	}
	return rows
}
