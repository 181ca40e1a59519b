package e2e

import (
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/namespaces"
)

// TestLocalExample is `make demo` without the script: examples/local on
// stores of its own, in temp dirs and on ports of its own.
func TestLocalExample(t *testing.T) {
	skipShort(t)
	eachCLI(t, testLocalExample)
}

func testLocalExample(t *testing.T, bin string) {
	needApp(t)
	start := time.Now()
	st := startStores(t)
	work := workCopy(t, "examples/local", localApp)
	stateDir := filepath.Join(t.TempDir(), "fleet")
	fleet := "e2e-" + randHex(4)
	const replicas = 3
	base := portBlock(t, replicas, 10)
	vars := st.vars()
	maps.Copy(vars, map[string]string{
		"name": fleet, "fleet_secret": randHex(32), "artifact": dwkBin(t), "app_token": randHex(16),
		"state_dir": stateDir, "base_port": strconv.Itoa(base), "replicas": strconv.Itoa(replicas),
	})
	w := newTF(t, bin, filepath.Join(work, "examples", "local"), vars)
	w.must("init", "-input=false", "-backend-config=path="+filepath.Join(work, "local.tfstate"))
	td := w.teardownAt(stateDir)
	w.must("apply", "-auto-approve", "-input=false")
	w.noChanges()

	var urls []string
	w.output("urls", &urls)
	if len(urls) != replicas {
		t.Fatalf("urls = %v, want %d", urls, replicas)
	}
	var members []member
	w.output("members", &members)
	for _, m := range members {
		if m.State != "running" {
			t.Errorf("member %s is %q after apply, want running", m.Member, m.State)
		}
	}
	// The names Terraform created are the names the replicas open.
	var dbs databases
	w.output("databases", &dbs)
	if dbs.Coord != namespaces.Coord(fleet) || dbs.Queues != namespaces.Queues(fleet) {
		t.Errorf("databases = %+v, want coord %s and queues %s", dbs, namespaces.Coord(fleet), namespaces.Queues(fleet))
	}
	wantD1 := map[string]string{}
	for _, wk := range config.Default().Workers {
		for _, db := range wk.Bindings.D1 {
			wantD1[db] = namespaces.D1(fleet, db)
		}
	}
	if !maps.Equal(dbs.D1, wantD1) {
		t.Errorf("D1 databases = %v, want the reference workers' %v", dbs.D1, wantD1)
	}
	var mk markerOut
	w.output("marker", &mk)
	if mk.ID == "" || mk.Database != dbs.Coord {
		t.Errorf("marker = %+v, want an id in %s", mk, dbs.Coord)
	}
	var bucket string
	w.output("bucket", &bucket)
	t.Logf("fleet %s up after %s: %v", fleet, time.Since(start).Round(time.Second), urls)

	checkReferenceWorkers(t, members[0].InstallDir)
	driveChat(t, urls, "e2e-"+randHex(3))
	driveCounter(t, urls, "e2e-"+randHex(3), 3*replicas)
	checkVersion(t, urls, "1")
	driveApp(t, urls, vars["app_token"])
	checkReplicaLogs(t, members)

	w.must("destroy", "-auto-approve", "-input=false")
	td.done = true
	waitNoProcessesUnder(t, stateDir, 10*time.Second)
	for _, m := range members {
		if _, err := os.Stat(m.InstallDir); !os.IsNotExist(err) {
			t.Errorf("install directory %s survived destroy (%v)", m.InstallDir, err)
		}
	}
	st.assertGone(t, fleet, dbs, bucket)
	t.Logf("total %s", time.Since(start).Round(time.Second))
}

// TestNamespacesModule checks modules/namespaces against
// appliance/fleet/namespaces, short names and names long enough to be hashed.
func TestNamespacesModule(t *testing.T) { eachCLI(t, testNamespacesModule) }

func testNamespacesModule(t *testing.T, bin string) {
	long := "a-fleet-with-a-name-long-enough-to-overflow-sqld-namespaces-63"
	d1 := []string{"chat", "a-d1-database-whose-name-alone-is-rather-long"}
	for _, fleet := range []string{"prod", long} {
		t.Run(fleet[:4], func(t *testing.T) {
			work := workCopy(t)
			list, _ := jsonString(d1)
			w := newTF(t, bin, filepath.Join(work, "modules", "namespaces"), map[string]string{"fleet": fleet, "d1": list})
			w.must("init", "-input=false", "-backend=false")
			w.must("apply", "-auto-approve", "-input=false")
			var coord, queues string
			var gotD1 map[string]string
			w.output("coord", &coord)
			w.output("queues", &queues)
			w.output("d1", &gotD1)
			if want := namespaces.Coord(fleet); coord != want {
				t.Errorf("coord = %s, want %s", coord, want)
			}
			if want := namespaces.Queues(fleet); queues != want {
				t.Errorf("queues = %s, want %s", queues, want)
			}
			for _, d := range d1 {
				if want := namespaces.D1(fleet, d); gotD1[d] != want {
					t.Errorf("d1[%s] = %s, want %s", d, gotD1[d], want)
				}
			}
			if got := slices.Sorted(maps.Keys(gotD1)); !slices.Equal(got, slices.Sorted(slices.Values(d1))) {
				t.Errorf("d1 keys = %v, want %v", got, d1)
			}
		})
	}
}

// checkReferenceWorkers checks that the reference workers examples/local
// spells out in HCL are config.Default()'s, but for the chat's "/" route,
// which the Workers project serves.
func checkReferenceWorkers(t *testing.T, installDir string) {
	t.Helper()
	c, err := config.Load(filepath.Join(installDir, "dwk.json"))
	if err != nil {
		t.Fatal(err)
	}
	c.ApplyDefaults()
	got := map[string]config.Worker{}
	for _, w := range c.Workers {
		got[w.Name] = w
	}
	def := config.Default()
	for _, w := range def.Workers {
		if w.Name == "chat" {
			w.Routes = slices.DeleteFunc(slices.Clone(w.Routes), func(r string) bool { return r == "/" })
		}
		if g, ok := got[w.Name]; !ok || !reflect.DeepEqual(g, w) {
			t.Errorf("examples/local's worker %s is\n%+v\nwant config.Default()'s\n%+v", w.Name, g, w)
		}
	}
	if !reflect.DeepEqual(c.Affinity.Rules, def.Affinity.Rules) {
		t.Errorf("examples/local's affinity rules are %+v, want config.Default()'s %+v", c.Affinity.Rules, def.Affinity.Rules)
	}
}
