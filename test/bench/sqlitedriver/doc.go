// Package sqlitedriver compares the pure-Go SQLite drivers dwk could use:
// modernc.org/sqlite (C translated to Go by ccgo), github.com/ncruces/go-sqlite3
// (SQLite's Wasm build translated to Go by wasm2go) and zombiezen.com/go/sqlite
// (a direct, non-database/sql API over modernc's translation).
//
// It is its own module so that the main dwk binary never links the drivers
// that lose. The benchmarks live in bench_test.go; sizes.sh measures binary
// size and cold start; docs/sqlite-driver.md records the figures and the
// decision. mattn/go-sqlite3 is not a candidate: it needs cgo, and dwk ships
// as a static CGO_ENABLED=0 binary.
package sqlitedriver
