package wranglercmds

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/wait"
)

// TestFleet runs the commands on a central fleet (dwk libsql, versitygw,
// one replica serving the notes project), named by the replica's
// dwk.json, on a database wrangler migrated first.
func TestFleet(t *testing.T) {
	t.Parallel()
	proj := copyProject(t)
	f := fleettest.New(t, fleettest.Options{Replicas: 1, PlaintextInternal: true, Edit: func(i int, c *config.Config) {
		c.Workers = []config.Worker{{Project: filepath.Join(proj, "wrangler.json")}}
	}})
	f.Provision()
	r := f.Replicas[0]
	r.Start()
	env := []string{"DWK_FLEET_SECRET=" + f.Secret, "DWK_S3_SECRET=" + f.S3.SecretKey, "DWK_ADMIN_TOKEN=" + fleettest.AdminToken}
	c := cli{t: t, dir: proj, env: env, extra: []string{"--config", r.Config}}

	// The database as wrangler leaves it after applying 0001_notes.sql:
	// the tracking table as an older wrangler created it, the migration's
	// SQL and its row, inserted as wrangler inserts it.
	first, err := os.ReadFile(filepath.Join(proj, "migrations", "0001_notes.sql"))
	if err != nil {
		t.Fatal(err)
	}
	c.ok("d1", "execute", "DB", "--command", `
		CREATE TABLE IF NOT EXISTS d1_migrations(
			id         INTEGER PRIMARY KEY AUTOINCREMENT,
			name       TEXT UNIQUE,
			applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
		);
	`+string(first)+`
		INSERT INTO d1_migrations (name)
		values ('0001_notes.sql');`)
	out := c.ok("d1", "migrations", "list", "DB")
	applied, pending, _ := strings.Cut(out, "Migrations to be applied:")
	if !strings.Contains(applied, "Migrations applied:") || !strings.Contains(applied, "0001_notes.sql") || strings.Contains(applied, "0002_tags.sql") {
		t.Errorf("migrations list shows as applied:\n%s\nwant 0001_notes.sql, which wrangler applied, alone", applied)
	}
	if !strings.Contains(pending, "0002_tags.sql") || strings.Contains(pending, "0001_notes.sql") {
		t.Errorf("migrations list shows as pending:\n%s\nwant 0002_tags.sql alone", pending)
	}

	// Apply while the replica serves the database: every request is
	// answered from before or after the migration.
	if got := getOK(t, r.Public, "/notes"); got != `[{"id":1,"body":"first note"}]` {
		t.Fatalf("worker's notes = %s", got)
	}
	stop := make(chan struct{})
	var served, failed int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			resp, err := httpClient.Get(r.Public + "/notes")
			if err != nil || resp.StatusCode != 200 {
				failed++
			} else {
				served++
			}
			if resp != nil {
				resp.Body.Close()
			}
		}
	}()
	out = c.ok("d1", "migrations", "apply", "notes-db")
	close(stop)
	wg.Wait()
	if failed > 0 || served == 0 {
		t.Errorf("during the migration the worker answered %d requests and failed %d; want none failed", served, failed)
	}
	if !regexp.MustCompile(`0002_tags\.sql +│ ✅`).MatchString(out) || strings.Contains(out, "0001_notes.sql") {
		t.Errorf("migrations apply:\n%s\nwant 0002_tags.sql applied, 0001_notes.sql left alone", out)
	}
	if got, want := getOK(t, r.Public, "/tables"), `["d1_migrations","notes","tags"]`; got != want {
		t.Errorf("worker's tables = %s, want %s", got, want)
	}

	// Two applies at once: each migration once.
	writeFile(t, filepath.Join(proj, "migrations", "0003_archive.sql"), "CREATE TABLE archive (note INTEGER, at TEXT);\n")
	results := make([]result, 2)
	errs := make([]error, 2)
	var both sync.WaitGroup
	for i := range results {
		both.Add(1)
		go func() {
			defer both.Done()
			results[i], errs[i] = c.exec("", "d1", "migrations", "apply", "DB")
		}()
	}
	both.Wait()
	for i, res := range results {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if res.code != 0 {
			t.Errorf("concurrent apply %d: exit %d\n%s\n%s", i, res.code, res.stdout, res.stderr)
		}
	}
	rows := c.query("DB", "SELECT id, name FROM d1_migrations ORDER BY id")
	if got, want := jsonOf(t, rows), `[{"id":1,"name":"0001_notes.sql"},{"id":2,"name":"0002_tags.sql"},{"id":3,"name":"0003_archive.sql"}]`; got != want {
		t.Errorf("d1_migrations = %s, want %s", got, want)
	}
	if out := c.ok("d1", "migrations", "list", "DB", "--worker", "notes"); !strings.Contains(out, "No migrations to apply") {
		t.Errorf("migrations list after apply:\n%s", out)
	}
	c.fails([]string{"--worker nope", "no such worker"}, "d1", "migrations", "list", "DB", "--worker", "nope")

	// Export: wrangler's rows, as wrangler exports them.
	dump := c.ok("d1", "export", "DB")
	for _, want := range []string{
		`INSERT INTO "d1_migrations" ("id","name","applied_at") VALUES(1,'0001_notes.sql','`,
		`INSERT INTO "notes" ("id","body") VALUES(1,'first note');`,
		"CREATE TABLE archive (note INTEGER, at TEXT);",
	} {
		if !strings.Contains(dump, want) {
			t.Errorf("export does not hold %q:\n%s", want, dump)
		}
	}

	// KV, R2 and queues, read back through the replica.
	c.ok("kv", "key", "put", "greeting", "hello fleet", "--binding", "NOTES", "--metadata", `{"from":"cli"}`)
	wait.For(t, "the replica to read the key", func() bool {
		_, body, _ := get(t, r.Public, "/kv?key=greeting")
		return body == `{"value":"hello fleet","metadata":{"from":"cli"}}`
	})
	if got := c.ok("kv", "key", "get", "greeting", "--binding", "NOTES"); got != "hello fleet" {
		t.Errorf("kv key get = %q", got)
	}
	writeFile(t, filepath.Join(proj, "readme.txt"), "read me on the fleet\n")
	c.ok("r2", "object", "put", "notes-files/docs/readme.txt", "--file", filepath.Join(proj, "readme.txt"), "--ct", "text/plain")
	if _, body, h := get(t, r.Public, "/file?key=docs/readme.txt"); body != "read me on the fleet\n" || h.Get("Content-Type") != "text/plain" {
		t.Errorf("worker's R2 object = %q (%s), want the file with its content type", body, h.Get("Content-Type"))
	}
	if got := c.ok("r2", "object", "get", "notes-files/docs/readme.txt", "--pipe"); got != "read me on the fleet\n" {
		t.Errorf("r2 object get --pipe = %q", got)
	}
	getOK(t, r.Public, "/enqueue?key=1")
	if out := c.ok("queues", "list"); !regexp.MustCompile(`notes-jobs +│ notes +│ +│ 1 `).MatchString(out) {
		t.Errorf("queues list:\n%s\nwant the message the worker sent", out)
	}

	// The mode is the configuration's: a fleet's dwk.json is not a data
	// directory, a wrangler file's stores are local.
	c.fails([]string{"central-mode configuration", "drop --local"}, "kv", "key", "list", "--binding", "NOTES", "--local")
	plain := cli{t: t, dir: proj, env: env}
	plain.fails([]string{"names local-mode stores", "add --local"}, "d1", "migrations", "list", "DB")
}
