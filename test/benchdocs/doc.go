// Package benchdocs keeps every published measurement in one source: the
// result files under bench/ (report.json, written by `make bench`, and
// soak-<duration>-<seed>.json, written by `make soak`), which the docs quote
// through markers instead of typed numbers.
//
// # Result files
//
// A result file is a JSON object whose "figures" member maps stable keys to
// [Figure]s: a value, its unit, and the text docs show (see the
// constructors for how each kind is written). The producers — dwkbench and
// test/soak — build them with this package's constructors.
//
// # Markers
//
// A doc quotes a figure by wrapping its text in a marker that names the
// result file (without bench/ and .json) and the key:
//
//	<!-- fig report:objects.get.central_time_op -->813 µs<!-- /fig -->
//
// Markers render as nothing on GitHub; the text between them is generated.
// The key _file ([FileKey]) names the result file itself
// ("`bench/soak-10m-42.json`"), so a doc that quotes another run changes
// only the source of its markers.
// [Fill] rewrites that text from the result files; the rest of the doc is
// prose and stays as written.
//
// # Regenerating and checking
//
//	go run ./test/benchdocs/docfigures          # make docs-figures: fill every marker in every *.md
//	go run ./test/benchdocs/docfigures -check   # fail when a doc differs from its result files
//	go run ./test/benchdocs/docfigures -list    # every key the result files offer
//
// make bench and make soak regenerate after they write. The package's test
// (part of make test) fails when a marked figure differs from its result
// file — a figure edited by hand or a result file changed without
// regenerating — when a marker names a missing file or key, and when a doc
// listed in [Strict] (docs/limits.md) states a measurement outside a
// marker.
package benchdocs
