package wranglercmds

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dwk/fleet/test/procs"
)

var readyRE = regexp.MustCompile(`ready on (http://\S+)`)

// TestLocal runs the commands on a local data directory of the notes
// project, then serves the project on it and reads everything back
// through the worker; and runs them again while dwk serve holds the
// directory.
func TestLocal(t *testing.T) {
	t.Parallel()
	proj := copyProject(t)
	data := filepath.Join(t.TempDir(), "data")
	c := cli{t: t, dir: proj, extra: []string{"--local", "--data-dir", data}}

	// No --config: the wrangler file of the working directory.
	out := c.ok("d1", "migrations", "list", "DB")
	for _, want := range []string{"Migrations to be applied:", "0001_notes.sql", "0002_tags.sql"} {
		if !strings.Contains(out, want) {
			t.Errorf("migrations list before apply does not show %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Migrations applied:") {
		t.Errorf("migrations list before apply shows applied migrations:\n%s", out)
	}
	c.extra = append(c.extra, "--config", filepath.Join(proj, "wrangler.json"))
	out = c.ok("d1", "migrations", "apply", "notes-db")
	if !regexp.MustCompile(`0001_notes\.sql +│ ✅`).MatchString(out) || !regexp.MustCompile(`0002_tags\.sql +│ ✅`).MatchString(out) {
		t.Errorf("migrations apply does not show both migrations applied:\n%s", out)
	}
	out = c.ok("d1", "migrations", "list", "DB")
	if !strings.Contains(out, "Migrations applied:") || !strings.Contains(out, "✅ No migrations to apply!") {
		t.Errorf("migrations list after apply:\n%s\nwant both applied and none to apply", out)
	}
	if out := c.ok("d1", "migrations", "apply", "DB"); !strings.Contains(out, "No migrations to apply") {
		t.Errorf("second migrations apply:\n%s\nwant nothing to apply", out)
	}
	rows := c.query("DB", "SELECT id, name, applied_at FROM d1_migrations ORDER BY id")
	stamp := regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$`)
	if len(rows) != 2 || rows[0]["name"] != "0001_notes.sql" || rows[1]["name"] != "0002_tags.sql" || rows[1]["id"] != 2.0 || !stamp.MatchString(rows[1]["applied_at"].(string)) {
		t.Errorf("d1_migrations = %v, want wrangler's rows for both migrations", rows)
	}

	// A failing migration: rolled back, the earlier ones stay.
	bad := filepath.Join(proj, "migrations", "0003_bad.sql")
	writeFile(t, bad, "CREATE TABLE half (x);\nINSERT INTO nowhere VALUES (1);\n")
	r := c.fails([]string{"0003_bad.sql", "statement 2", "no such table: nowhere"}, "d1", "migrations", "apply", "DB")
	if !regexp.MustCompile(`0003_bad\.sql +│ ❌`).MatchString(r.stdout) {
		t.Errorf("migrations apply does not mark the failed migration:\n%s", r.stdout)
	}
	if rows := c.query("DB", "SELECT name FROM sqlite_master WHERE name = 'half'"); len(rows) != 0 {
		t.Errorf("the failed migration's first table exists: %v", rows)
	}
	if err := os.Remove(bad); err != nil {
		t.Fatal(err)
	}

	// d1 execute: --command as one transaction, --file, --json.
	rows = c.query("DB", "INSERT INTO notes (body) VALUES ('from the cli'); SELECT id, body FROM notes ORDER BY id")
	if got, want := jsonOf(t, rows), `[{"body":"first note","id":1},{"body":"from the cli","id":2}]`; got != want {
		t.Errorf("notes = %s, want %s", got, want)
	}
	writeFile(t, filepath.Join(proj, "tags.sql"), "-- tag the first note\nINSERT INTO tags VALUES (1, 'alpha');\nINSERT INTO tags VALUES (1, 'beta;gamma');\n")
	c.ok("d1", "execute", "DB", "--file", filepath.Join(proj, "tags.sql"))
	c.fails([]string{"statement 2 of 2", "no such table: missing", "none of the 2 statements took effect"},
		"d1", "execute", "DB", "--command", "INSERT INTO notes (body) VALUES ('lost'); INSERT INTO missing VALUES (1)")
	c.fails([]string{`no D1 database is named or bound as "OTHER"`, "DB (database notes-db)"}, "d1", "execute", "OTHER", "--command", "SELECT 1")

	// d1 export, and the export read back into another data directory.
	dump := filepath.Join(proj, "out", "notes.sql")
	c.ok("d1", "export", "DB", "--output", dump)
	b, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"PRAGMA defer_foreign_keys=TRUE;\n",
		`INSERT INTO "d1_migrations" ("id","name","applied_at") VALUES(1,'0001_notes.sql','`,
		`INSERT INTO "notes" ("id","body") VALUES(2,'from the cli');`,
		`INSERT INTO "tags" ("note","tag") VALUES(1,'beta;gamma');`,
		"CREATE INDEX tags_by_note ON tags(note);\n",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("export does not hold %q:\n%s", want, b)
		}
	}
	if strings.Contains(string(b), "lost") || strings.Contains(string(b), "_dwk_") {
		t.Errorf("export holds the rolled-back row or dwk's bookmark table:\n%s", b)
	}
	copyDir := filepath.Join(t.TempDir(), "copy")
	c2 := cli{t: t, dir: proj, extra: []string{"--local", "--data-dir", copyDir, "--config", filepath.Join(proj, "wrangler.json")}}
	c2.ok("d1", "execute", "DB", "--file", dump)
	if again := c2.ok("d1", "export", "DB"); again != string(b) {
		t.Errorf("the export of the imported export differs:\n%s\nwant\n%s", again, b)
	}
	if out := c2.ok("d1", "migrations", "list", "DB"); !strings.Contains(out, "No migrations to apply") {
		t.Errorf("migrations list on the imported copy:\n%s\nwant the migrations applied", out)
	}
	schema := c.ok("d1", "export", "DB", "--no-data", "--table", "tags")
	if want := "PRAGMA defer_foreign_keys=TRUE;\nCREATE TABLE tags (\n  note INTEGER NOT NULL REFERENCES notes(id),\n  tag  TEXT NOT NULL\n);\nCREATE INDEX tags_by_note ON tags(note);\n"; schema != want {
		t.Errorf("export --no-data --table tags =\n%s\nwant\n%s", schema, want)
	}

	// kv key and kv bulk.
	c.ok("kv", "key", "put", "greeting", "hello", "--binding", "NOTES", "--metadata", `{"by":"cli"}`)
	writeFile(t, filepath.Join(proj, "value.bin"), "\x00\x01binary")
	c.ok("kv", "key", "put", "blob", "--namespace-id", "0f3c8a1e5b7d4c2a9e6f1b3d5a7c9e0f", "--path", filepath.Join(proj, "value.bin"))
	if got := c.ok("kv", "key", "get", "blob", "--binding", "NOTES"); got != "\x00\x01binary" {
		t.Errorf("kv key get blob = %q, want the file's bytes", got)
	}
	c.fails([]string{"Value not found"}, "kv", "key", "get", "nope", "--binding", "NOTES")
	c.fails([]string{`no KV namespace is bound as "OTHER"`, "NOTES"}, "kv", "key", "get", "x", "--binding", "OTHER")
	writeFile(t, filepath.Join(proj, "bulk.json"), `[
		{"key": "a", "value": "aGVsbG8gYnl0ZXM=", "base64": true},
		{"key": "b", "value": "short-lived", "expiration_ttl": 3600},
		{"key": "c", "value": "with metadata", "metadata": {"n": 1}}
	]`)
	c.ok("kv", "bulk", "put", filepath.Join(proj, "bulk.json"), "--binding", "NOTES")
	writeFile(t, filepath.Join(proj, "bad.json"), `[{"key": "x"}, {"key": "y", "value": 2}]`)
	c.fails([]string{"The item at index 0", "The item at index 1", "interface KeyValue"}, "kv", "bulk", "put", filepath.Join(proj, "bad.json"), "--binding", "NOTES")
	writeFile(t, filepath.Join(proj, "delete.json"), `["blob"]`)
	c.ok("kv", "bulk", "delete", filepath.Join(proj, "delete.json"), "--binding", "NOTES", "--force")
	c.ok("kv", "key", "delete", "c", "--binding", "NOTES")
	var keys []struct {
		Name       string          `json:"name"`
		Expiration int64           `json:"expiration"`
		Metadata   json.RawMessage `json:"metadata"`
	}
	if err := json.Unmarshal([]byte(c.ok("kv", "key", "list", "--binding", "NOTES")), &keys); err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, k := range keys {
		names = append(names, k.Name)
	}
	if got, want := strings.Join(names, ","), "a,b,greeting"; got != want {
		t.Errorf("kv key list = %s, want %s", got, want)
	}
	if len(keys) == 3 && (keys[1].Expiration < time.Now().Unix()+3000 || jsonOf(t, keys[2].Metadata) != `{"by":"cli"}`) {
		t.Errorf("kv key list = %+v, want b expiring in an hour and greeting's metadata", keys)
	}
	if got := c.ok("kv", "key", "get", "a", "--binding", "NOTES", "--text"); got != "hello bytes\n" {
		t.Errorf("kv key get a --text = %q, want the decoded base64 value", got)
	}

	// r2 object.
	writeFile(t, filepath.Join(proj, "readme.txt"), "read me\n")
	c.ok("r2", "object", "put", "notes-files/docs/readme.txt", "--file", filepath.Join(proj, "readme.txt"), "--content-type", "text/plain; charset=utf-8")
	if r := c.run("piped body", "r2", "object", "put", "FILES/piped.bin", "--pipe"); r.code != 0 {
		t.Fatalf("r2 object put --pipe: exit %d\n%s", r.code, r.stderr)
	}
	if got := c.ok("r2", "object", "get", "notes-files/piped.bin", "--pipe"); got != "piped body" {
		t.Errorf("r2 object get --pipe = %q, want what was piped in", got)
	}
	c.ok("r2", "object", "get", "notes-files/docs/readme.txt", "--file", filepath.Join(proj, "got", "readme.txt"))
	if b, err := os.ReadFile(filepath.Join(proj, "got", "readme.txt")); err != nil || string(b) != "read me\n" {
		t.Errorf("r2 object get --file wrote %q, %v", b, err)
	}
	c.ok("r2", "object", "delete", "notes-files/piped.bin")
	c.fails([]string{"does not exist"}, "r2", "object", "get", "notes-files/piped.bin", "--pipe")

	// queues list, before anything is sent.
	if out := c.ok("queues", "list"); !regexp.MustCompile(`notes-jobs +│ notes +│ +│ 0 `).MatchString(out) {
		t.Errorf("queues list:\n%s\nwant notes-jobs, produced by notes, empty", out)
	}

	// dwk serve on the data directory: the worker reads what the commands
	// wrote.
	p := procs.Start(t, "dwk serve", procs.Binary(t), nil, "serve", "--config", filepath.Join(proj, "wrangler.json"), "--data-dir", data, "--listen", "127.0.0.1:0")
	base := p.WaitFor(readyRE, 60*time.Second)[1]
	if got, want := getOK(t, base, "/notes"), `[{"id":1,"body":"first note"},{"id":2,"body":"from the cli"}]`; got != want {
		t.Errorf("worker's notes = %s, want %s", got, want)
	}
	if got, want := getOK(t, base, "/tables"), `["d1_migrations","notes","tags"]`; got != want {
		t.Errorf("worker's tables = %s, want %s", got, want)
	}
	if got, want := getOK(t, base, "/kv?key=greeting"), `{"value":"hello","metadata":{"by":"cli"}}`; got != want {
		t.Errorf("worker's KV greeting = %s, want %s", got, want)
	}
	if _, body, h := get(t, base, "/file?key=docs/readme.txt"); body != "read me\n" || h.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("worker's R2 object = %q (%s), want the file with its content type", body, h.Get("Content-Type"))
	}
	getOK(t, base, "/enqueue?key=1")

	// While dwk serve holds the directory: D1, KV and queues are shared,
	// R2 is refused.
	c.ok("kv", "key", "put", "live", "yes", "--binding", "NOTES")
	if got := getOK(t, base, "/kv?key=live"); got != `{"value":"yes","metadata":null}` {
		t.Errorf("worker's KV live = %s, want the value put while serving", got)
	}
	writeFile(t, filepath.Join(proj, "migrations", "0003_archive.sql"), "CREATE TABLE archive (note INTEGER, at TEXT);\n")
	c.ok("d1", "migrations", "apply", "DB")
	if got, want := getOK(t, base, "/tables"), `["archive","d1_migrations","notes","tags"]`; got != want {
		t.Errorf("worker's tables after a migration applied while serving = %s, want %s", got, want)
	}
	if out := c.ok("queues", "list"); !regexp.MustCompile(`notes-jobs +│ notes +│ +│ 1 `).MatchString(out) {
		t.Errorf("queues list while serving:\n%s\nwant the message the worker sent", out)
	}
	c.fails([]string{"data directory is in use", "one process at a time"}, "r2", "object", "put", "notes-files/x", "--file", filepath.Join(proj, "readme.txt"))

	if err := p.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code, err := p.Wait(40 * time.Second); err != nil || code != 0 {
		t.Fatalf("dwk serve exit = %d, %v\n%s", code, err, p.Output())
	}
	c.ok("r2", "object", "put", "notes-files/x", "--file", filepath.Join(proj, "readme.txt"))
}
