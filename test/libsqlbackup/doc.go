// Package libsqlbackup tests the continuous backup of `dwk libsql` to S3
// with real processes: a `dwk libsql` with --backup-s3-* flags writing to
// a versitygw gateway (test/s3server), killed with SIGKILL, restored with
// `dwk libsql restore` and checked for every acknowledged write, to a
// point in time, and across an S3 outage. See docs/backups.md.
package libsqlbackup
