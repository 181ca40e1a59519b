// Package backup ships the committed changes of every dwk libsql
// namespace to S3 continuously, and restores a data dir from there, to
// the latest state or to a point in time. docs/backups.md is the
// operator's guide; this is the contract.
//
// # What is shipped
//
// Each namespace is a SQLite database in WAL mode. The server's
// connections never checkpoint on their own (wal_autocheckpoint=0 and
// SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE; clients may not run PRAGMA
// wal_checkpoint), so every committed frame stays in the WAL until the
// [Replicator] has uploaded it. Every Lag/4 it visits the namespaces that
// committed since (the server calls [Replicator.Changed]), takes the
// namespace's write lock (BEGIN IMMEDIATE, a few milliseconds), reads the
// frames after the last shipped one up to the last commit, checking salts
// and SQLite's running checksum, releases the lock and uploads them as one
// WAL segment. When the WAL passes 1000 frames it uploads and then
// checkpoints (PASSIVE) under the lock, so SQLite restarts the WAL only
// after everything in it is in S3; the backup follows the restart by its
// salt.
//
// # Generations
//
// A generation is a snapshot (the database file after a checkpoint, plus
// the frames readers kept it from copying) followed by numbered WAL
// segments; see layout.go for the keys. A namespace starts one when it is
// first seen, every SnapshotInterval while it changes, and whenever its
// WAL history has a gap (the server ran without backup, or its state file
// is gone). Objects carry a CRC-32C; restore refuses damaged ones.
//
// # Under failure
//
//   - S3 down or slow: uploads fail, the namespaces stay pending and are
//     retried every 500ms; the lag (Status) grows; checkpoints wait, so
//     the WAL grows instead of losing frames. Nothing is dropped.
//   - Server killed: the WAL and the per-namespace state file (StateFile)
//     survive. The file is rewritten only when a generation starts and at
//     checkpoints; the key of the generation's last segment says where
//     shipping stopped (catchUp lists them), and the rest of the WAL is
//     shipped. A segment uploaded twice restores in extent order.
//   - Disk lost: commits acknowledged less than the lag before are lost;
//     all earlier ones are in S3. The server refuses to start on an empty
//     data dir over an existing backup unless told to, so that an
//     automatic restart does not supersede the backup with empty
//     databases.
//
// One server writes one prefix: two servers sharing a prefix would mix
// their generations.
package backup
