// Package journal logs to the systemd journal through its native protocol,
// so that each record keeps its attributes as journal fields: a replica's
// MEMBER, the WORKER a record is about, its LEVEL and PRIORITY, and every
// other attribute under its key in upper case. `journalctl -u UNIT
// WORKER=chat` then selects one worker's records.
//
// A program started by systemd finds in $JOURNAL_STREAM the device and
// inode of the stream its stderr was connected to; Attached tells whether
// stderr still is that stream, which is when the journal should get the
// records directly instead of as lines of text.
package journal
