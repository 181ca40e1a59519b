// Package secrets tests dwk secret against a real 3-replica fleet (dwk
// libsql, versitygw, three dwk serve): a secret put, changed and deleted
// with the command reaches every replica's front door within a bounded
// time and without a restart, a stored secret overrides dwk.json's value
// until it is deleted, a name the worker's wrangler file never declared
// works, a Durable Object in memory keeps the value it was constructed
// with until it is constructed again, list shows names only, and no value
// ever reaches a replica's log or the commands' output.
package secrets

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/procs"
)

// applyWithin bounds how long a change may take to reach every replica:
// the replicas' poll interval (2s) and its round trips, with a margin
// for a loaded machine.
const applyWithin = 10 * time.Second

// configured is dwk.json's value of API_TOKEN, which stored values
// override.
const configured = "from-dwk-json"

func TestSecretCommands(t *testing.T) {
	project, err := filepath.Abs("testdata/check/wrangler.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	f := fleettest.Start(t, fleettest.Options{Replicas: 3, Edit: func(_ int, c *config.Config) {
		c.Workers = []config.Worker{{Project: project, Routes: []string{"/"}, Bindings: config.Bindings{
			Secrets: map[string]*config.Secret{"API_TOKEN": config.Literal(configured)},
		}}}
		// The object must stay in memory while the test looks at it.
		c.Objects.IdleTimeout = config.Duration(10 * time.Minute)
	}})
	cfg := f.Replicas[0].Config
	run := func(stdin string, args ...string) result { return dwk(t, f, stdin, args...) }
	first, second, extra := "v1-"+randHex(t), "v2-"+randHex(t), "x-"+randHex(t)
	var outputs []string

	everyReplica(t, f, "dwk.json's value", "/", configured, "", answer{"match", "unset"})
	if got := object(t, f.Replicas[0], configured, ""); got.Token != "match" {
		t.Fatalf("the object with dwk.json's value: %+v", got)
	}
	listIs(t, run("", "secret", "list", "--config", cfg), `[{"name":"API_TOKEN","type":"secret_text","source":"config"}]`)

	// Put overrides dwk.json's value on every replica, without a restart.
	put := run(first+"\n", "secret", "put", "API_TOKEN", "--config", cfg)
	put.ok(t)
	outputs = append(outputs, put.stdout, put.stderr)
	if !strings.Contains(put.stderr, "overrides dwk.json's value of API_TOKEN") {
		t.Errorf("put of a configured name does not say it overrides dwk.json's value:\n%s", put.stderr)
	}
	everyReplica(t, f, "the value put", "/", first, "", answer{"match", "unset"})
	everyReplica(t, f, "the value put", "/", configured, "", answer{"mismatch", "unset"})

	// The object in memory keeps the env it was constructed with until it
	// is constructed again.
	if got := object(t, f.Replicas[1], configured, ""); got.Token != "match" {
		t.Errorf("the object in memory after the put: %+v; want it to keep dwk.json's value", got)
	}
	for _, r := range f.Replicas {
		if _, err := r.ReleaseObject("check.Checker", "one"); err != nil {
			t.Fatal(err)
		}
	}
	if got := object(t, f.Replicas[2], first, ""); got.Token != "match" {
		t.Errorf("the object constructed again: %+v; want the value put", got)
	}

	// A name the wrangler file never declared, with --name.
	pe := run(extra, "secret", "put", "EXTRA", "--name", "check", "--config", cfg)
	pe.ok(t)
	outputs = append(outputs, pe.stdout, pe.stderr)
	everyReplica(t, f, "a new secret", "/", first, extra, answer{"match", "match"})

	// Change.
	change := run(second, "secret", "put", "API_TOKEN", "--config", cfg)
	change.ok(t)
	outputs = append(outputs, change.stdout, change.stderr)
	everyReplica(t, f, "the changed value", "/", second, extra, answer{"match", "match"})

	list := run("", "secret", "list", "--config", cfg)
	outputs = append(outputs, list.stdout, list.stderr)
	listIs(t, list, `[{"name":"API_TOKEN","type":"secret_text","source":"stored"},{"name":"EXTRA","type":"secret_text","source":"stored"}]`)

	// Delete: dwk.json's value again, and a name it lacks unset.
	run("", "secret", "delete", "API_TOKEN", "--config", cfg).ok(t)
	run("", "secret", "delete", "EXTRA", "--config", cfg).ok(t)
	everyReplica(t, f, "the deletes", "/", configured, extra, answer{"match", "unset"})
	listIs(t, run("", "secret", "list", "--config", cfg), `[{"name":"API_TOKEN","type":"secret_text","source":"config"}]`)

	// Mistakes get an error that says what to fix.
	for _, tc := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{"delete", "API_TOKEN"}, "was not put with dwk secret put"},
		{"", []string{"delete", "NOPE"}, "worker check has no secret NOPE"},
		{"v", []string{"put", "BAD-NAME"}, "use letters, digits and underscores"},
		{"v", []string{"put", "CHECKERS"}, "already a objects binding"},
		{"", []string{"put", "EMPTY"}, "the value is empty"},
		{"v", []string{"put", "X", "--name", "nope"}, "no such worker"},
	} {
		res := run(tc.stdin, append(append([]string{"secret"}, tc.args...), "--config", cfg)...)
		if res.code == 0 || !strings.Contains(res.stderr, tc.want) {
			t.Errorf("dwk secret %q: exit %d, stderr %q; want a failure saying %q", tc.args, res.code, res.stderr, tc.want)
		}
	}
	local := filepath.Join(t.TempDir(), "dwk.json")
	if err := os.WriteFile(local, []byte(`{"storage": {"mode": "local"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{local, project} {
		if res := run("v", "secret", "put", "X", "--config", c); res.code == 0 || !strings.Contains(res.stderr, ".dev.vars") {
			t.Errorf("put on %s: exit %d, %q; want a failure pointing to .dev.vars", c, res.code, res.stderr)
		}
	}

	// No value reached a log or an output; no replica restarted.
	for _, r := range f.Replicas {
		out := r.Proc.Output()
		outputs = append(outputs, out)
		if n := strings.Count(out, "msg=serving"); n != 1 {
			t.Errorf("%s started %d times; want once", r.Member, n)
		}
		if !strings.Contains(out, "secrets changed") {
			t.Errorf("%s did not log the change of secrets", r.Member)
		}
	}
	for _, out := range outputs {
		for _, v := range []string{first, second, extra} {
			if strings.Contains(out, v) {
				t.Errorf("a value shows in an output or log:\n%s", out)
			}
		}
	}
}

// answer is what the worker says of its secrets.
type answer struct{ Token, Extra string }

// ask sends the headers to url and returns the worker's answer.
func ask(url, token, extra string) (answer, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("X-Token", token)
	req.Header.Set("X-Extra", extra)
	c := &http.Client{Timeout: 5 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	var a answer
	err = json.NewDecoder(resp.Body).Decode(&a)
	return a, err
}

// everyReplica waits until each replica's front door gives want, at most
// applyWithin from now.
func everyReplica(t *testing.T, f *fleettest.Fleet, what, path, token, extra string, want answer) {
	t.Helper()
	deadline := time.Now().Add(applyWithin)
	for _, r := range f.Replicas {
		for {
			got, err := ask(r.Public+path, token, extra)
			if err == nil && got == want {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %s answers %+v, %v; want %+v within %s", what, r.Member, got, err, want, applyWithin)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// object asks the Durable Object, through r's front door.
func object(t *testing.T, r *fleettest.Replica, token, extra string) answer {
	t.Helper()
	a, err := ask(r.Public+"/object", token, extra)
	if err != nil {
		t.Fatalf("the object through %s: %v", r.Member, err)
	}
	return a
}

// listIs checks that `dwk secret list` printed want (compact JSON).
func listIs(t *testing.T, res result, want string) {
	t.Helper()
	res.ok(t)
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(res.stdout)); err != nil || buf.String() != want {
		t.Errorf("secret list = %s (%v); want %s", res.stdout, err, want)
	}
}

// result is what one dwk command did.
type result struct {
	args           []string
	stdout, stderr string
	code           int
}

func (r result) ok(t *testing.T) {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("dwk %q: exit %d\n%s", r.args, r.code, r.stderr)
	}
}

// dwk runs the dwk binary with the fleet's environment and stdin.
func dwk(t *testing.T, f *fleettest.Fleet, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.CommandContext(procs.Context(t), procs.Binary(t), args...)
	cmd.Env = append(os.Environ(), "DWK_FLEET_SECRET="+f.Secret, "DWK_S3_SECRET="+f.S3.SecretKey, "DWK_ADMIN_TOKEN="+fleettest.AdminToken)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("dwk %q: %v", args, err)
	}
	return result{args: args, stdout: out.String(), stderr: errb.String(), code: code}
}

func randHex(t *testing.T) string {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}
