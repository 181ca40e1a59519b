package jsprojects

import (
	"path/filepath"
	"regexp"
	"testing"
)

// project is one Workers project of projects/ and the test of what it does.
type project struct {
	// name is its directory under projects/, the name in its wrangler
	// file, and the first segment of every path it serves.
	name string
	// with are projects served beside it (the targets of its service
	// bindings).
	with []string
	// migrate are the D1 bindings whose migrations are applied before it
	// serves.
	migrate []string
	// test checks the project as a client sees it.
	test func(t *testing.T, s *site)
}

// projects is every project and its test.
var projects = []project{
	{name: "notes", migrate: []string{"DB"}, test: testNotes},
	{name: "kv", test: testKV},
	{name: "files", test: testFiles},
	{name: "jobs", test: testJobs},
	{name: "rpc", with: []string{"rpc-helper"}, test: testRPC},
	{name: "streaming", test: testStreaming},
	{name: "safety", test: testSafety},
	{name: "compat", test: testCompat},
}

// readyRE matches the line dwk serve prints once it serves.
var readyRE = regexp.MustCompile(`ready on (http://\S+)`)

// wranglerFile is the wrangler file of the project in dir.
func wranglerFile(t testing.TB, dir string) string {
	t.Helper()
	for _, name := range []string{"wrangler.json", "wrangler.jsonc", "wrangler.toml"} {
		p := filepath.Join(dir, name)
		if fileExists(p) {
			return p
		}
	}
	t.Fatalf("%s has no wrangler file", dir)
	return ""
}
