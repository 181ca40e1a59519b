// Package d1migrations applies a D1 database's migrations the way wrangler
// does (`wrangler d1 migrations list|apply`), over any worker.D1Backend, so
// that a database wrangler migrated is recognised as migrated here and a
// database migrated here is recognised by wrangler.
//
// # Files
//
// The migrations are the files of a directory (wrangler's migrations_dir,
// "migrations" by default) whose path relative to it matches a glob
// (migrations_pattern, "*.sql" by default; "**" spans directories, and a
// wildcard does not match a leading dot). A migration's name is that
// relative path with forward slashes ("0001_create_notes.sql", or
// "0001_init/migration.sql" in drizzle's layout). They run in wrangler's
// order: by the leading integer of each path segment (the digits before
// the first '_': 1_a.sql before 9_b.sql before 10_c.sql), numbered before
// unnumbered, ties in byte order.
//
// # The tracking table
//
// Applied migrations are recorded in a table, d1_migrations unless the
// wrangler file's migrations_table names another, created exactly as
// wrangler creates it:
//
//	CREATE TABLE IF NOT EXISTS "d1_migrations"(
//		id         INTEGER PRIMARY KEY AUTOINCREMENT,
//		name       TEXT UNIQUE,
//		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
//	);
//
// and filled as wrangler fills it: one row per migration, its name in
// name, id and applied_at left to their defaults. A migration is applied
// when a row has its name; nothing else is compared (not the file's
// content), as in wrangler.
//
// # Applying
//
// Each pending migration runs as one batch, one transaction: the statements
// of its file (split as SQLite splits them, after wrangler's removal of a
// sqlite3 .dump's BEGIN TRANSACTION and COMMIT) and the insert of its
// tracking row, so a migration and its row commit together or not at all.
// The row is inserted first: the name's UNIQUE constraint then refuses a
// migration that another run applied since this one read the table, before
// any of its statements runs. A migration that fails stops the run; those
// before it stay applied, it and those after it do not, and the error (an
// *Error) names its file, the failing statement and the SQL error.
//
// # Concurrency and lost answers
//
// Two runs may apply the same database at once, and replicas may serve it
// meanwhile: every batch is a write transaction, serialised by the engine,
// and workers see a migration entirely or not at all. When a batch fails,
// Apply reads the tracking table again: a migration recorded there by now
// was applied, by another run or by this one whose answer was lost, and
// Apply goes on with the next one. Running Apply again after any failure is
// therefore always safe.
package d1migrations
