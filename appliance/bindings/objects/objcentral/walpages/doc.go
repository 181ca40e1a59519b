// Package walpages reads the pages that committed transactions wrote to a
// SQLite write-ahead log, so that central mode can ship exactly the bytes
// a local replica committed to the object's primary database.
//
// A WAL file is a 32-byte header followed by frames, each a 24-byte header
// and one page image. Frames are valid while their salts match the
// header's and their cumulative checksum matches; a frame whose header
// carries a non-zero database size ends a transaction (a commit frame).
// Read returns the pages of every valid frame up to the last commit frame,
// the last image of each page winning, and ignores what follows: frames of
// a transaction still being written, or left over from a rolled-back one.
// The format is SQLite's (https://www.sqlite.org/fileformat2.html#walformat).
package walpages
