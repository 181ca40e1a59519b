package e2e

import (
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestCustomWorker builds examples/custom-worker the way its README says
// (its own Go module, github.com/dwk/fleet replaced by this checkout) and
// deploys it with modules/fleet: the hello worker answers through every
// front door, and its Guestbook objects keep one count per name.
func TestCustomWorker(t *testing.T) {
	skipShort(t)
	eachCLI(t, testCustomWorker)
}

func testCustomWorker(t *testing.T, bin string) {
	start := time.Now()
	work := workCopy(t, "examples/custom-worker")
	dir := filepath.Join(work, "examples", "custom-worker")
	artifact := buildCustomWorker(t, dir)
	t.Logf("built the custom dwk in %s", time.Since(start).Round(time.Second))

	st := startStores(t)
	stateDir := filepath.Join(t.TempDir(), "hello")
	const replicas = 2
	vars := st.vars()
	maps.Copy(vars, map[string]string{
		"name": "e2e-hello-" + randHex(3), "fleet_secret": randHex(32), "artifact": artifact, "greeting": "Howdy",
		"state_dir": stateDir, "base_port": strconv.Itoa(portBlock(t, replicas, 10)), "replicas": strconv.Itoa(replicas),
	})
	w := newTF(t, bin, dir, vars)
	w.must("init", "-input=false")
	td := w.teardownAt(stateDir)
	w.must("apply", "-auto-approve", "-input=false")

	var urls []string
	w.output("urls", &urls)
	name := "e2e-" + randHex(3)
	for i, u := range urls {
		var got struct {
			Greeting string
			Visits   int64
		}
		code, by := call(t, "GET", u+"/hello/"+name, nil, &got)
		if code != http.StatusOK || got.Greeting != "Howdy, "+name+"!" || got.Visits != int64(i+1) {
			t.Fatalf("GET %s/hello/%s = %d %+v (member %s), want 200, \"Howdy, %s!\", visit %d", u, name, code, got, by, name, i+1)
		}
	}
	var members []member
	w.output("members", &members)
	checkReplicaLogs(t, members)
	w.must("destroy", "-auto-approve", "-input=false")
	td.done = true
	waitNoProcessesUnder(t, stateDir, 10*time.Second)
	t.Logf("total %s", time.Since(start).Round(time.Second))
}

// buildCustomWorker builds the example's module in dir (a copy) against
// this checkout. The copy's go.mod may lag behind the checkout's
// dependencies; -mod=mod lets go fill in what moved, from the checkout's
// go.sum, without touching the repository.
func buildCustomWorker(t *testing.T, dir string) string {
	t.Helper()
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "go.sum"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(sum)
	f.Close()
	goCmd := func(args ...string) *exec.Cmd {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "CGO_ENABLED=0", "GOFLAGS=-buildvcs=false")
		return cmd
	}
	if b, err := goCmd("mod", "edit", "-replace", "github.com/dwk/fleet="+root).CombinedOutput(); err != nil {
		t.Fatalf("go mod edit: %v\n%s", err, b)
	}
	if b, err := goCmd("list", "-mod=readonly", "-deps", ".").CombinedOutput(); err != nil {
		t.Logf("note: examples/custom-worker/go.mod lags behind this checkout's dependencies; refresh it with "+
			"`cp go.sum examples/custom-worker/ && cd examples/custom-worker && GOFLAGS=-mod=mod go build -o /dev/null .`:\n%s", tail(string(b), 5))
	}
	out := filepath.Join(t.TempDir(), "dwk-hello")
	if b, err := goCmd("build", "-mod=mod", "-trimpath", "-o", out, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build in examples/custom-worker: %v\n%s", err, b)
	}
	return out
}
