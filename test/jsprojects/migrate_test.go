package jsprojects

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/procs"
	"github.com/dwk/fleet/test/wait"
)

// migrateProjects are the projects whose stores TestMigrate moves: KV, D1,
// R2, a Durable Object class (rpc's Vault, beside rpc-helper), and queues
// (jobs, with its ledger in KV).
var migrateProjects = []string{"kv", "notes", "files", "rpc", "rpc-helper", "jobs"}

// migratedStores is how many stores they and the Go reference workers
// (counter and chat) bind: a KV namespace each for kv and jobs, notes'
// database, files' bucket, the Vault class, the jobs and jobs-dlq queues;
// the Counter class; chat's database, bucket, queue and ChatRoom class.
const migratedStores = 12

// changedOnTheFleet are the stores whose entries the fleet changes by
// running, between the two migrations: the alarms ring (the Vault's and
// the Counter's objects record it), and the backlog is consumed (the jobs
// queue empties, its ledger in KV fills).
var changedOnTheFleet = []string{"do Counter", "do rpc.Vault", "kv jobsledger", "queue jobs"}

// backlog are the jobs left in the data directory's queue when its dwk
// serve stops, for the fleet's consumer to take.
var backlog = []string{"moved-1", "moved-2", "moved-3"}

// TestMigrate fills a local data directory through the kv, notes, files
// and rpc projects and the Go reference workers (counter, chat) served by
// a local dwk serve (keys, D1 databases, uploaded files, Durable Objects'
// storage and their pending alarms), adds a queue backlog and a multipart
// object, moves it into a fleet of three replicas with `dwk migrate
// to-central`, finds everything in place on a second run, reads every
// value back through each front door, hears the alarms ring and sees the
// backlog consumed on the fleet, moves the running fleet's stores (the
// objects held by replicas, which hand them back) into an empty data
// directory with `dwk migrate to-local`, and compares the two
// directories: every entry of every store by its digest (only those the
// fleet changed by running differ), the multipart object's ETag, the D1
// exports byte for byte, and every value, the rung alarms' marks
// included, read through a dwk serve on the new one.
func TestMigrate(t *testing.T) {
	var workers []config.Worker
	for _, name := range migrateProjects {
		workers = append(workers, config.Worker{Project: projectDir(t, name), Routes: []string{"/" + name + "/"}})
	}
	workers = append(workers, config.Default().Workers...)
	// The local data directory and the fleet share one secret: an object
	// id carries a tag made with it.
	f := fleettest.New(t, fleettest.Options{Replicas: 3, Edit: func(i int, c *config.Config) { c.Workers = workers }})
	f.Provision()
	localCfg := filepath.Join(t.TempDir(), "dwk.json")
	b, err := config.Encode(&config.Config{Fleet: config.Fleet{Secret: config.Literal(f.Secret)}, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(localCfg, b, 0o600); err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	runDwk(t, nil, "d1", "migrations", "apply", "DB", "--local", "--config", localCfg, "--data-dir", data, "--worker", "notes")
	local := serveDir(t, localCfg, data)
	want := fillStores(t, local.site)
	refs := fillRefWorkers(t, local.site)
	if st := vaultAlarm(t, local.site, 0); st.Rang != 0 || st.Scheduled == nil {
		t.Fatalf("the vault's alarm before the move: %+v, want scheduled and not rung", st)
	}

	env := []string{"DWK_FLEET_SECRET=" + f.Secret, "DWK_S3_SECRET=" + f.S3.SecretKey, "DWK_ADMIN_TOKEN=" + fleettest.AdminToken}
	busy := exec.Command(procs.Binary(t), "migrate", "to-central", "--data-dir", data, "--config", f.Replicas[0].Config)
	busy.Env = append(os.Environ(), env...)
	if out, err := busy.CombinedOutput(); err == nil || !strings.Contains(string(out), "in use") {
		t.Errorf("dwk migrate on a data directory dwk serve holds: %v\n%s\nwant a refusal saying it is in use", err, out)
	}
	local.stop(t)
	leaveBacklog(t, data)
	videoETag := leaveMultipart(t, data)
	start := time.Now()
	out := runDwk(t, env, "migrate", "to-central", "--data-dir", data, "--config", f.Replicas[0].Config)
	t.Logf("to-central took %v:\n%s", time.Since(start).Round(time.Millisecond), out)
	if n := strings.Count(out, "│ yes"); n != migratedStores {
		t.Errorf("to-central verified %d stores, want %d:\n%s", n, migratedStores, out)
	}
	// A second run finds everything in place.
	again := runDwk(t, env, "migrate", "to-central", "--data-dir", data, "--config", f.Replicas[0].Config)
	rows := skippedRow.FindAllStringSubmatch(again, -1)
	for _, r := range rows {
		if r[1] != r[2] {
			rows = nil
		}
	}
	if len(rows) != migratedStores {
		t.Errorf("a second run copied again, or did not verify (want every entry skipped):\n%s", again)
	}

	for _, r := range f.Replicas {
		r.Start()
	}
	fleet := &site{fleet: true}
	for _, r := range f.Replicas {
		fleet.doors = append(fleet.doors, r.Public)
	}
	for i := range fleet.doors {
		checkStores(t, fleet, i, want)
		checkRefWorkers(t, fleet, i, refs)
	}
	wait.Within(t, 60*time.Second, "the moved alarm to ring on the fleet", func() bool { return vaultAlarm(t, fleet, 1).Rang > 0 })
	wait.Within(t, 60*time.Second, "the moved counter's alarm to ring on the fleet", func() bool { return readCounterAlarm(t, fleet, 2).Fired > 0 })
	var l ledger
	wait.Within(t, 60*time.Second, "the fleet's consumer to ack the moved backlog", func() bool {
		l = ledger{}
		do(t, "GET", fleet.url(2, "/jobs/ledger"), nil).want(t, 200, "ledger").json(t, &l)
		for _, id := range backlog {
			if l.Acked[id] == 0 {
				return false
			}
		}
		return true
	})
	for _, id := range backlog {
		if l.Acked[id] != 1 || len(l.Attempts[id]) != 1 {
			t.Errorf("job %s on the fleet: acked %d times after attempts %v, want once, at the first", id, l.Acked[id], l.Attempts[id])
		}
	}

	back := t.TempDir()
	out = runDwk(t, env, "migrate", "to-local", "--data-dir", back, "--config", f.Replicas[0].Config, "--name", config.Default().Fleet.Name)
	t.Logf("to-local:\n%s", out)
	export := func(dir string) []byte {
		file := filepath.Join(t.TempDir(), "notes.sql")
		runDwk(t, nil, "d1", "export", "DB", "--local", "--config", localCfg, "--data-dir", dir, "--worker", "notes", "--output", file)
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if a, b := export(data), export(back); !bytes.Equal(a, b) || len(a) == 0 {
		t.Errorf("the notes database after the round trip differs:\nbefore:\n%s\nafter:\n%s", a, b)
	}
	if n := strings.Count(out, "│ yes"); n != migratedStores {
		t.Errorf("to-local verified %d stores, want %d", n, migratedStores)
	}
	home := serveDir(t, localCfg, back)
	checkStores(t, home.site, 0, want)
	checkRefWorkers(t, home.site, 0, refs)
	if st := vaultAlarm(t, home.site, 0); st.Rang != 1 || st.Scheduled != nil {
		t.Errorf("the vault's alarm after the round trip: %+v, want rung once and none scheduled", st)
	}
	if a := readCounterAlarm(t, home.site, 0); a.Fired != 1 || a.AlarmAt != nil {
		t.Errorf("the counter's alarm after the round trip: %+v, want fired once and none set", a)
	}
	home.stop(t)

	diff := differing(t, data, back, migratedList(out), videoETag)
	t.Logf("entries that differ between the directory before and after the round trip: %v", diff)
	var changed []string
	for s := range diff {
		changed = append(changed, s)
	}
	slices.Sort(changed)
	if !slices.Equal(changed, changedOnTheFleet) {
		t.Errorf("stores that differ after the round trip: %v; want only those the fleet changed by running, %v", diff, changedOnTheFleet)
	}
}

// skippedRow matches a row of dwk migrate's table with nothing copied or
// replaced, verified; its groups are the entries and the skipped ones.
var skippedRow = regexp.MustCompile(`│ (?:d1|kv|r2|do|queue)\s+│ \S+\s+│ (\d+)\s+│ \d+\s+│ 0\s+│ 0\s+│ (\d+)\s+│ yes`)

// leaveBacklog sends the backlog's jobs to the jobs queue of the data
// directory dir, which no dwk serve consumes now.
func leaveBacklog(t *testing.T, dir string) {
	t.Helper()
	ctx := context.Background()
	st, done := openStores(t, dir)
	defer done()
	var msgs []worker.QueueMessage
	for _, id := range backlog {
		msgs = append(msgs, worker.QueueMessage{Body: []byte(fmt.Sprintf(`{"id":%q,"failures":0}`, id)), QueueSendOptions: worker.QueueSendOptions{ContentType: "json"}})
	}
	if err := st.Broker().Send(ctx, "jobs", msgs); err != nil {
		t.Fatal(err)
	}
}

// localServe is a dwk serve in local mode.
type localServe struct {
	*site
	proc *procs.Proc
}

// serveDir starts dwk serve on a data directory.
func serveDir(t *testing.T, cfg, dir string) *localServe {
	t.Helper()
	proc := procs.Start(t, "dwk serve "+filepath.Base(dir), procs.Binary(t), nil, "serve", "--config", cfg, "--data-dir", dir, "--listen", "127.0.0.1:0")
	base := proc.WaitFor(readyRE, 3*time.Minute)[1]
	return &localServe{site: &site{doors: []string{base}, logs: proc.Output}, proc: proc}
}

// stop ends the process, which releases the data directory's lock.
func (l *localServe) stop(t *testing.T) {
	t.Helper()
	l.proc.Signal(syscall.SIGTERM)
	if _, err := l.proc.Wait(30 * time.Second); err != nil {
		t.Fatalf("dwk serve did not stop: %v", err)
	}
}

// storedValues are what fillStores wrote.
type storedValues struct {
	kv    map[string]string // key → value
	notes []string          // titles
	file  string            // the uploaded file's content
	key   string            // its object key
}

// fillStores writes keys with metadata and a TTL, notes, and an uploaded
// file through s.
func fillStores(t *testing.T, s *site) storedValues {
	t.Helper()
	v := storedValues{kv: map[string]string{}}
	for i := range 5 {
		key, value := fmt.Sprintf("key-%d", i), fmt.Sprintf("value %d ✓", i)
		q := ""
		if i%2 == 0 {
			q = "?ttl=3600"
		}
		do(t, "PUT", s.url(0, "/kv/items/"+key+q), []byte(value), "X-KV-Metadata", fmt.Sprintf(`{"n":%d}`, i)).want(t, 204, "put "+key)
		v.kv[key] = value
	}
	for i := range 3 {
		title := fmt.Sprintf("note %d", i)
		do(t, "POST", s.url(0, "/notes/api/notes"), map[string]any{"title": title, "body": "moved", "tags": []string{"m"}}).want(t, 201, "create "+title)
		v.notes = append(v.notes, title)
	}
	v.file = strings.Repeat("row,of,data\n", 200)
	body, ctype := multipartBody(t, formField{name: "description", value: "moved file"}, formField{name: "file", value: v.file, filename: "data.csv", ctype: "text/csv"})
	var up struct{ Key string }
	do(t, "POST", s.url(0, "/files/upload"), body, "Content-Type", ctype, "Accept", "application/json").want(t, 201, "upload").json(t, &up)
	v.key = up.Key
	var r rpcResult
	do(t, "POST", s.url(0, "/rpc/vault/moved/put"), map[string]any{"bal:alice": 100, "note": "kept"}).want(t, 200, "vault put").json(t, &r)
	do(t, "POST", s.url(0, "/rpc/vault/moved/arm?in=20000"), nil).want(t, 200, "vault arm").json(t, &r)
	if r.Error != nil || r.OK == nil {
		t.Fatalf("arm the vault's alarm: %+v", r)
	}
	return v
}

// alarmState is the rpc project's Vault's alarm, as its alarm op reports.
type alarmState struct {
	Scheduled *float64
	Rang      int
}

// vaultAlarm reads the moved vault's alarm through door i.
func vaultAlarm(t *testing.T, s *site, i int) alarmState {
	t.Helper()
	var r rpcResult
	do(t, "GET", s.url(i, "/rpc/vault/moved/alarm"), nil).want(t, 200, "vault alarm").json(t, &r)
	b, _ := jsonOf(r.OK)
	var st alarmState
	jsonInto(t, b, &st)
	return st
}

// checkStores reads every value of want through door i of s.
func checkStores(t *testing.T, s *site, i int, want storedValues) {
	t.Helper()
	for key, value := range want.kv {
		if r := do(t, "GET", s.url(i, "/kv/items/"+key+"?type=text"), nil).want(t, 200, "get "+key); string(r.body) != value {
			t.Errorf("door %d: %s = %q, want %q", i, key, r.body, value)
		}
		if r := do(t, "GET", s.url(i, "/kv/meta/"+key), nil).want(t, 200, "metadata of "+key); !bytes.Contains(r.body, []byte(`"n":`+strings.TrimPrefix(key, "key-"))) {
			t.Errorf("door %d: metadata of %s = %s", i, key, r.body)
		}
	}
	var listed struct{ Notes []struct{ Title string } }
	do(t, "GET", s.url(i, "/notes/api/notes"), nil).want(t, 200, "list notes").json(t, &listed)
	var titles []string
	for _, n := range listed.Notes {
		titles = append(titles, n.Title)
	}
	for _, title := range want.notes {
		if !strings.Contains(strings.Join(titles, "|"), title) {
			t.Errorf("door %d: notes %q, want %q among them", i, titles, title)
		}
	}
	var vr rpcResult
	do(t, "GET", s.url(i, "/rpc/vault/moved/get?key=bal:alice&key=note"), nil).want(t, 200, "vault get").json(t, &vr)
	if got, _ := vr.OK.(map[string]any); got["bal:alice"] != 100.0 || got["note"] != "kept" {
		t.Errorf("door %d: the vault holds %v, want bal:alice 100 and note kept", i, vr.OK)
	}
	r := do(t, "GET", s.url(i, "/files/object/"+want.key), nil).want(t, 200, "download")
	if string(r.body) != want.file || r.header.Get("Content-Type") != "text/csv" {
		t.Errorf("door %d: file %s: %d bytes of %s, want %d bytes of text/csv", i, want.key, len(r.body), r.header.Get("Content-Type"), len(want.file))
	}
}
