// Package migrate tests `dwk migrate` as an operator runs it: real
// processes, a local data directory, and a fleet's libSQL server and S3
// bucket. The round trip through a fleet with Workers projects is in
// test/jsprojects (TestMigrate).
package migrate
