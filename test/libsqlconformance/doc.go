// Package libsqlconformance is the conformance suite for libSQL servers:
// the same cases run through libsql-client-go (http:// and ws:// URLs) and
// through the official @libsql/client for JavaScript (node/), against a
// freshly built `dwk libsql` or, when DWK_TEST_LIBSQL_URL is set, against
// any libSQL server such as sqld. See docs/libsql.md.
package libsqlconformance
