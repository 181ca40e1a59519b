package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/dwk/fleet/appliance/bindings/d1/d1central"
	"github.com/dwk/fleet/appliance/worker"
)

func init() {
	migrations := group{
		name:  "d1 migrations",
		about: "D1 migrations as wrangler tracks them: the .sql files of the database's migrations_dir, applied in order, recorded in its migrations_table (d1_migrations).",
		subs: []subcommand{
			{"list", "list the migrations applied and those to apply", runD1MigrationsList},
			{"apply", "apply the pending migrations, each in one transaction with its tracking row", runD1MigrationsApply},
		},
	}
	d1 := group{
		name:  "d1",
		about: "Work on D1 databases, with wrangler's commands, flags and output: a local data directory with --local, or a fleet's databases.",
		subs: []subcommand{
			{"execute", "run SQL (--command or --file) in one transaction", runD1Execute},
			{"export", "write the database's schema and rows as SQL", runD1Export},
			{"migrations", "list and apply migrations", migrations.run},
		},
	}
	Register(Command{Name: "d1", Short: "work on D1 databases: execute, export, migrations list|apply (wrangler's d1)", Run: d1.run})
}

// commandContext is the context of a store command: it ends on SIGINT or
// SIGTERM.
func commandContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
}

// openD1 opens the stores and the database name resolves to.
func (f *storeFlags) openD1(ctx context.Context, name string, stderr io.Writer) (*target, d1Ref, worker.D1Backend, error) {
	t, err := f.open(ctx, kindD1, stderr)
	if err != nil {
		return nil, d1Ref{}, nil, err
	}
	ref, err := t.resolveD1(name)
	if err != nil {
		t.close()
		return nil, d1Ref{}, nil, err
	}
	db, err := t.st.D1(ref.store)
	if err != nil {
		t.close()
		return nil, d1Ref{}, nil, fmt.Errorf("open D1 database %s: %w", ref.label, err)
	}
	return t, ref, db, nil
}

// d1Hint is what to do after a failed batch whose outcome is unknown.
func d1Hint(err error) string {
	if errors.Is(err, d1central.ErrOutcomeUnknown) {
		return " (the answer was lost: the statements may have taken effect; check before running them again)"
	}
	return ""
}

// fail prints a command's error and returns exit code 1.
func fail(stderr io.Writer, cmd string, err error) int {
	fmt.Fprintf(stderr, "dwk %s: %v\n", cmd, err)
	return 1
}

// readSQLFile reads a SQL text file, refusing a binary SQLite database
// as wrangler does.
func readSQLFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("cannot read the SQL file: %w", err)
	}
	if len(b) >= 15 && string(b[:15]) == "SQLite format 3" {
		return "", fmt.Errorf("%s is a SQLite database file, not SQL text: export it as SQL first (sqlite3 %s .dump > dump.sql)", path, path)
	}
	return string(b), nil
}
