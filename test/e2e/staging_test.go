package e2e

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// env is one staging environment's outputs.
type env struct {
	ws      string
	w       *tf
	Name    string
	URLs    []string
	Bucket  string
	DBs     databases
	Marker  markerOut
	Ports   []map[string]int
	Members []member
}

// TestStagingExample applies examples/staging in two workspaces at once and
// shows that the two environments share nothing: not a name, a database, a
// bucket, a marker or a port, and no write in one is visible in the other.
func TestStagingExample(t *testing.T) {
	skipShort(t)
	eachCLI(t, testStagingExample)
}

func testStagingExample(t *testing.T, bin string) {
	start := time.Now()
	st := startStores(t)
	work := workCopy(t, "examples/staging")
	stateDir := filepath.Join(t.TempDir(), "staging")
	vars := st.vars()
	maps.Copy(vars, map[string]string{
		"secret": randHex(32), "artifact": dwkBin(t), "state_dir": stateDir, "replicas": "2",
	})
	w := newTF(t, bin, filepath.Join(work, "examples", "staging"), vars)
	w.must("init", "-input=false")
	suffix := randHex(3)
	envs := []*env{{ws: "e2e-a-" + suffix}, {ws: "e2e-b-" + suffix}}
	for _, e := range envs {
		w.must("workspace", "new", e.ws)
		e.w = w.workspace(e.ws)
	}

	// The default ports come from the workspace name.
	derived := map[string]string{}
	for _, e := range envs {
		derived[e.ws] = plannedOutput(t, e.w, "ports")
	}
	if derived[envs[0].ws] == derived[envs[1].ws] {
		t.Errorf("workspaces %s and %s derive the same ports %s", envs[0].ws, envs[1].ws, derived[envs[0].ws])
	}

	// Both applied at once, each on a block of ports known to be free (the
	// derived blocks may be taken on a busy machine).
	base := portBlock(t, 4, 3) // two replicas per environment, three ports each
	for i, e := range envs {
		e.w.env = append(e.w.env, "TF_VAR_base_port="+strconv.Itoa(base+6*i))
	}
	destroyed := false
	t.Cleanup(func() {
		if !destroyed {
			var wg sync.WaitGroup
			for _, e := range envs {
				wg.Go(func() {
					if _, err := e.w.run("destroy", "-auto-approve", "-input=false"); err != nil {
						t.Logf("cleanup destroy of %s failed: %v", e.ws, err)
					}
				})
			}
			wg.Wait()
		}
		killReplicas(t, stateDir)
	})
	parallel(t, envs, "apply", "-auto-approve", "-input=false")
	t.Logf("both environments up after %s", time.Since(start).Round(time.Second))

	for _, e := range envs {
		e.w.output("name", &e.Name)
		e.w.output("urls", &e.URLs)
		e.w.output("bucket", &e.Bucket)
		e.w.output("databases", &e.DBs)
		e.w.output("marker", &e.Marker)
		e.w.output("ports", &e.Ports)
		e.w.output("members", &e.Members)
	}
	a, b := envs[0], envs[1]
	if !strings.HasSuffix(a.Name, a.ws) || !strings.HasSuffix(b.Name, b.ws) {
		t.Errorf("fleet names %s, %s are not named after workspaces %s, %s", a.Name, b.Name, a.ws, b.ws)
	}
	distinct := func(what string, x, y any) {
		xs, _ := json.Marshal(x)
		ys, _ := json.Marshal(y)
		if string(xs) == string(ys) || strings.Contains(string(xs), "null") {
			t.Errorf("%s: %s and %s are not two distinct values", what, xs, ys)
		}
	}
	distinct("fleet name", a.Name, b.Name)
	distinct("bucket", a.Bucket, b.Bucket)
	distinct("coordination database", a.DBs.Coord, b.DBs.Coord)
	distinct("queue database", a.DBs.Queues, b.DBs.Queues)
	distinct("D1 databases", a.DBs.D1, b.DBs.D1)
	distinct("marker id", a.Marker.ID, b.Marker.ID)
	distinct("marker database", a.Marker.Database, b.Marker.Database)
	for _, pa := range a.Ports {
		for _, pb := range b.Ports {
			for _, x := range pa {
				for _, y := range pb {
					if x == y {
						t.Errorf("port %d is used by both environments", x)
					}
				}
			}
		}
	}
	a.w.noChanges()

	// Writes in one environment are invisible in the other: objects (the
	// counter), and blobs (a chat attachment in R2).
	driveCounter(t, a.URLs, "shared-name", 3)
	var got struct{ Value int64 }
	if code, _ := call(t, "GET", b.URLs[0]+"/counter/shared-name", nil, &got); code != http.StatusOK || got.Value != 0 {
		t.Errorf("counter shared-name in %s = %d (status %d) after 3 increments in %s, want 0", b.Name, got.Value, code, a.Name)
	}
	path := uploadAttachment(t, a.URLs[0], "files", "only in "+a.Name)
	if code, _ := call(t, "GET", a.URLs[1]+path, nil, nil); code != http.StatusOK {
		t.Errorf("attachment %s in %s: status %d, want 200", path, a.Name, code)
	}
	if code, _ := call(t, "GET", b.URLs[0]+path, nil, nil); code == http.StatusOK {
		t.Errorf("attachment %s uploaded to %s is readable in %s", path, a.Name, b.Name)
	}

	for _, e := range envs {
		checkReplicaLogs(t, e.Members)
	}
	parallel(t, envs, "destroy", "-auto-approve", "-input=false")
	destroyed = true
	waitNoProcessesUnder(t, stateDir, 10*time.Second)
	for _, e := range envs {
		st.assertGone(t, e.Name, e.DBs, e.Bucket)
	}
	t.Logf("total %s", time.Since(start).Round(time.Second))
}

// parallel runs one command in every environment at once.
func parallel(t *testing.T, envs []*env, args ...string) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, len(envs))
	for i, e := range envs {
		wg.Go(func() {
			r, err := e.w.run(args...)
			if err == nil {
				t.Logf("workspace %s: terraform %s: %s", e.ws, args[0], r.took.Round(time.Millisecond))
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("workspace %s: %v", envs[i].ws, err)
		}
	}
}

// plannedOutput returns the value a plan gives output name, for outputs
// known before apply.
func plannedOutput(t *testing.T, w *tf, name string) string {
	t.Helper()
	planFile := filepath.Join(t.TempDir(), "plan")
	w.must("plan", "-input=false", "-out="+planFile)
	r := w.must("show", "-json", planFile)
	var plan struct {
		PlannedValues struct {
			Outputs map[string]struct {
				Value json.RawMessage `json:"value"`
			} `json:"outputs"`
		} `json:"planned_values"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &plan); err != nil {
		t.Fatalf("terraform show -json: %v", err)
	}
	v, ok := plan.PlannedValues.Outputs[name]
	if !ok || len(v.Value) == 0 {
		t.Fatalf("the plan does not know output %s before apply", name)
	}
	return string(v.Value)
}

// jsonString is v as JSON, for list and map variables.
func jsonString(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encode %v: %w", v, err)
	}
	return string(b), nil
}
