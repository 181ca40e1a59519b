// Package libsql is dwk's single-node libSQL server: the Hrana protocol
// (versions 1–3, JSON) over HTTP and WebSocket, sqld's admin API for
// namespaces, and sqld-style JWT authentication, on real SQLite files.
//
// It exists so that development machines, CI and small installs can run a
// dwk fleet from one binary; fleets that outgrow one node point the same
// clients at sqld or Turso instead. docs/libsql.md describes flags, the
// layout on disk, namespaces, auth and limits; package backup (see
// docs/backups.md) ships every namespace's commits to S3 when configured.
//
// Life cycle: [New] fills defaults and has no side effects; [Server.Open]
// validates the configuration, locks and opens the database directory and
// binds the listeners; [Server.Serve] serves until [Server.Close], which
// stops admission, closes every stream (rolling back open transactions)
// and checkpoints every namespace's WAL.
package libsql
