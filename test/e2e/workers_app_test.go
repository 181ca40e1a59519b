package e2e

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/test/lbclient"
	"github.com/dwk/fleet/test/needtool"
)

// TestWorkersAppExample applies examples/workers-app: the Workers project
// in app/ on a 3-replica fleet in one apply, its D1 migrations applied,
// its bindings serving through every front door. Then, under load through
// all three front doors, one line of the script is edited and applied
// again: the fleet rolls with no failed request, and the plan after it is
// empty. A migration added is applied by the next apply, before the roll;
// a broken one stops the apply, naming it, and no replica rolls.
func TestWorkersAppExample(t *testing.T) {
	skipShort(t)
	eachCLI(t, testWorkersAppExample)
}

// localApp is the Workers project examples/workers-app and examples/local
// (make demo) deploy.
const localApp = "examples/workers-app/app"

// needApp skips (fails under CI) unless localApp's npm packages are
// installed.
func needApp(t *testing.T) {
	needtool.File(t, "the npm packages of "+localApp, filepath.Join(root, localApp, "node_modules", "hono", "package.json"),
		"scripts/tools.sh examples (npm ci in "+localApp+")")
}

func testWorkersAppExample(t *testing.T, bin string) {
	needApp(t)
	start := time.Now()
	st := startStores(t)
	work := workCopy(t, "examples/workers-app")
	app := filepath.Join(work, "examples", "workers-app", "app")
	stateDir := filepath.Join(t.TempDir(), "fleet")
	fleet := "e2e-" + randHex(4)
	const replicas = 3
	base := portBlock(t, replicas, 10)
	token := randHex(16)
	vars := st.vars()
	maps.Copy(vars, map[string]string{
		"name": fleet, "fleet_secret": randHex(32), "artifact": dwkBin(t), "api_token": token,
		"state_dir": stateDir, "base_port": strconv.Itoa(base), "replicas": strconv.Itoa(replicas),
	})
	w := newTF(t, bin, filepath.Join(work, "examples", "workers-app"), vars)
	w.must("init", "-input=false", "-backend-config=path="+filepath.Join(work, "local.tfstate"))
	td := w.teardownAt(stateDir)
	w.must("apply", "-auto-approve", "-input=false")
	w.noChanges()
	var urls []string
	w.output("urls", &urls)
	if len(urls) != replicas {
		t.Fatalf("urls = %v, want %d", urls, replicas)
	}
	var migrations map[string][]string
	w.output("migrations", &migrations)
	if got := migrations["notes"]; !slices.Equal(got, []string{"0001_create_notes.sql"}) {
		t.Errorf("migrations = %v, want notes: [0001_create_notes.sql]", migrations)
	}
	t.Logf("project up after %s: %v", time.Since(start).Round(time.Second), urls)

	checkVersion(t, urls, "1")
	driveApp(t, urls, token)

	// One line of the script, applied under load: no request fails.
	setAppVersion(t, app, "2")
	load := startLoad(urls, 6)
	rollStart := time.Now()
	w.must("apply", "-auto-approve", "-input=false")
	roll := time.Since(rollStart)
	ok, failed := load.stop()
	t.Logf("rolling deploy: %d requests through %d front doors during the %s apply, %d failed", ok+int64(len(failed)), replicas, roll.Round(time.Millisecond), len(failed))
	if len(failed) > 0 {
		t.Errorf("%d requests failed during the roll; the first: %v", len(failed), failed[:min(5, len(failed))])
	}
	if ok < 100 {
		t.Errorf("only %d requests went through during the roll: the load did not run", ok)
	}
	checkVersion(t, urls, "2")
	w.noChanges()

	// A new migration is applied before the roll.
	writeFile(t, filepath.Join(app, "migrations", "0002_note_tags.sql"), "ALTER TABLE notes ADD COLUMN tag TEXT;\n")
	w.must("apply", "-auto-approve", "-input=false")
	w.output("migrations", &migrations)
	if got := migrations["notes"]; !slices.Equal(got, []string{"0001_create_notes.sql", "0002_note_tags.sql"}) {
		t.Errorf("migrations = %v after adding 0002_note_tags.sql", migrations)
	}
	w.noChanges()

	// A broken migration, with a new version of the script: the apply
	// stops naming it, and no replica rolls.
	writeFile(t, filepath.Join(app, "migrations", "0003_broken.sql"), "ALTER TABLE no_such_table ADD COLUMN x TEXT;\n")
	setAppVersion(t, app, "3")
	r, err := w.run("apply", "-auto-approve", "-input=false")
	if err == nil {
		t.Fatalf("apply with a broken migration succeeded: %s", r)
	}
	if !strings.Contains(r.stderr, "0003_broken.sql") || !strings.Contains(r.stderr, "no_such_table") {
		t.Errorf("the failed apply does not name the migration and its SQL error:\n%s", tail(r.stderr, 40))
	}
	checkVersion(t, urls, "2")

	w.must("destroy", "-auto-approve", "-input=false")
	td.done = true
	waitNoProcessesUnder(t, stateDir, 10*time.Second)
	t.Logf("total %s", time.Since(start).Round(time.Second))
}

// versionLine is the line of app/src/index.js the test edits.
var versionLine = regexp.MustCompile(`(?m)^const VERSION = "[^"]*";$`)

// setAppVersion rewrites the app's VERSION line.
func setAppVersion(t *testing.T, app, v string) {
	t.Helper()
	p := filepath.Join(app, "src", "index.js")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !versionLine.Match(b) {
		t.Fatalf("%s has no line `const VERSION = \"...\";`", p)
	}
	writeFile(t, p, versionLine.ReplaceAllString(string(b), fmt.Sprintf("const VERSION = %q;", v)))
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkVersion checks that every front door serves version v.
func checkVersion(t *testing.T, urls []string, v string) {
	t.Helper()
	for _, u := range urls {
		var got struct {
			Version string `json:"version"`
		}
		if status, _ := call(t, "GET", u+"/api/version", nil, &got); status != 200 || got.Version != v {
			t.Errorf("%s/api/version: %d %+v, want version %s", u, status, got, v)
		}
	}
}

// driveApp uses each binding through different front doors: D1, R2, the
// Durable Object, the assets and the secret.
func driveApp(t *testing.T, urls []string, token string) {
	t.Helper()
	text := "note " + randHex(4)
	if status, _ := call(t, "POST", urls[0]+"/api/notes", strings.NewReader(`{"text":"`+text+`"}`), nil); status != 201 {
		t.Errorf("POST /api/notes: %d", status)
	}
	var notes struct {
		Notes []struct {
			Text string `json:"text"`
		} `json:"notes"`
	}
	call(t, "GET", urls[1]+"/api/notes", nil, &notes)
	if len(notes.Notes) == 0 || notes.Notes[0].Text != text {
		t.Errorf("GET /api/notes through another front door: %+v, want %q first", notes, text)
	}
	body := "file " + randHex(8)
	if status, _ := call(t, "PUT", urls[1]+"/api/files/docs/a.txt", strings.NewReader(body), nil); status != 201 {
		t.Errorf("PUT /api/files: %d", status)
	}
	resp, err := httpClient.Get(urls[2] + "/api/files/docs/a.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(got) != body {
		t.Errorf("GET /api/files through a third front door: %q, want %q", got, body)
	}
	name := "c-" + randHex(3)
	for i := 0; i < 3*len(urls); i++ {
		var c struct {
			Value int `json:"value"`
		}
		if status, _ := call(t, "POST", urls[i%len(urls)]+"/api/counters/"+name, nil, &c); status != 200 || c.Value != i+1 {
			t.Fatalf("increment %d through %s: %d, value %d", i+1, urls[i%len(urls)], status, c.Value)
		}
	}
	if status, _ := call(t, "GET", urls[0]+"/", nil, nil); status != 200 {
		t.Errorf("GET / (the assets' index.html): %d", status)
	}
	for _, c := range []struct {
		auth string
		want int
	}{{"", 401}, {"Bearer wrong", 401}, {"Bearer " + token, 200}} {
		req, _ := http.NewRequest("GET", urls[2]+"/api/secret", nil)
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		resp, err := httpClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("GET /api/secret with %q: %d, want %d", c.auth, resp.StatusCode, c.want)
		}
	}
}

// load is closed-loop clients through the front doors as a load balancer
// gives them (lbclient: health-checked, a refused connection goes to
// another door), each alternating a read and a Durable Object write,
// counting what succeeded and recording what failed.
type load struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	ok     atomic.Int64
	mu     sync.Mutex
	failed []string
}

func startLoad(urls []string, clients int) *load {
	ctx, cancel := context.WithCancel(context.Background())
	l := &load{cancel: cancel}
	doors := lbclient.NewDoors(urls)
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		doors.Watch(ctx.Done())
	}()
	for i := 0; i < clients; i++ {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			for n := 0; ctx.Err() == nil; n++ {
				method, path := "GET", "/api/version"
				if n%2 == 1 {
					method, path = "POST", "/api/counters/load-"+strconv.Itoa(i)
				}
				if _, err := doors.Do(method, path, "", nil); err != nil {
					l.mu.Lock()
					l.failed = append(l.failed, fmt.Sprintf("%s at %s: %v", path, time.Now().Format("15:04:05.000"), err))
					l.mu.Unlock()
					continue
				}
				l.ok.Add(1)
			}
		}()
	}
	return l
}

// stop ends the load and returns its counts.
func (l *load) stop() (ok int64, failed []string) {
	l.cancel()
	l.wg.Wait()
	return l.ok.Load(), l.failed
}
