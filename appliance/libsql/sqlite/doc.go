// Package sqlite is a narrow binding to SQLite (the pure-Go translation in
// modernc.org/sqlite/lib) for the dwk libSQL server and the local D1
// backend (appliance/bindings/d1/d1local).
//
// database/sql hides what both must report exactly: raw storage
// values (the modernc driver turns text in DATE columns into time.Time),
// declared column types as written, whether a statement is read-only, where
// one statement ends and the next begins, the autocommit state, and the
// change counters. This package exposes those and nothing else.
//
// A Conn and its Stmts must be used by one goroutine at a time; only
// Conn.Interrupt may be called concurrently.
package sqlite
