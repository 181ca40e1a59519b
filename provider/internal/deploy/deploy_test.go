package deploy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/server"
	"github.com/dwk/fleet/provider/internal/deploy"
	"github.com/dwk/fleet/test/freeport"
	"github.com/dwk/fleet/test/procs"
)

func TestReportMatchesServerStatusReport(t *testing.T) {
	b, err := json.Marshal(server.StatusReport{Member: "m", Internal: "x:1", Started: time.Unix(1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var r deploy.Report
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("deploy.Report lacks a field of server.StatusReport: %v", err)
	}
	back, _ := json.Marshal(r)
	if !bytes.Equal(back, b) {
		t.Errorf("round trip differs:\n got %s\nwant %s", back, b)
	}
}

func TestUnitFile(t *testing.T) {
	u := deploy.UnitFile(&deploy.Host{InstallDir: "/opt/dwk/prod", Member: "10.0.0.5", DrainTimeout: 30 * time.Second})
	for _, want := range []string{
		"ExecStart=/opt/dwk/prod/current serve --config /opt/dwk/prod/dwk.json",
		"KillSignal=SIGTERM",
		"TimeoutStopSec=45",
		"Restart=on-failure",
		"WantedBy=multi-user.target",
	} {
		if !strings.Contains(u, want) {
			t.Errorf("unit lacks %q:\n%s", want, u)
		}
	}
}

func TestDialAddr(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"0.0.0.0:8789", "127.0.0.1:8789"},
		{":8789", "127.0.0.1:8789"},
		{"[::]:8789", "[::1]:8789"},
		{"10.0.0.5:8789", "10.0.0.5:8789"},
	} {
		if got := deploy.DialAddr(c.in); got != c.want {
			t.Errorf("DialAddr(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseEvents(t *testing.T) {
	evs, err := deploy.ParseEvents("2026-01-02T03:04:05.5Z drain \n2026-01-02T03:04:06Z healthy 1s\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 || evs[0].Name != "drain" || evs[1].Name != "healthy" || evs[1].Detail != "1s" {
		t.Errorf("events = %+v", evs)
	}
	if _, err := deploy.ParseEvents("yesterday drain"); err == nil {
		t.Error("a bad timestamp parsed")
	}
}

// localHost returns a host on this machine in its own install dir, with
// free public and admin ports.
func localHost(t *testing.T, name string) *deploy.Host {
	dir := filepath.Join(t.TempDir(), name)
	h := &deploy.Host{
		Name: "local:" + dir, Target: deploy.Local{}, InstallDir: dir, Service: deploy.ServiceProcess,
		Member: name, AdminAddr: freeport.Must(t, "127.0.0.1"), AdminToken: "admin-" + name,
		DrainTimeout: 5 * time.Second,
	}
	setConfig(t, h, freeport.Must(t, "127.0.0.1"), "")
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		deploy.New().Remove(ctx, h, deploy.ServiceProcess)
	})
	return h
}

func setConfig(t *testing.T, h *deploy.Host, public, level string) {
	c := &config.Config{
		Fleet:   config.Fleet{Name: "test", Member: h.Member},
		Listen:  config.Listen{Public: public, Admin: h.AdminAddr},
		Storage: config.Storage{Mode: "local", DataDir: filepath.Join(h.InstallDir, "data")},
		Workers: []config.Worker{{Name: "counter", Bindings: config.Bindings{Objects: map[string]string{"COUNTER": "Counter"}}}},
		Drain:   config.Drain{Timeout: config.Duration(h.DrainTimeout)},
		Admin:   config.Admin{Token: config.Literal(h.AdminToken)},
		Log:     config.Log{Level: level},
	}
	b, err := config.Encode(c)
	if err != nil {
		t.Fatal(err)
	}
	h.Config = b
}

func artifact(t *testing.T) deploy.Artifact {
	p := procs.DeployBinary(t)
	sum, err := deploy.HashFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return deploy.Artifact{Path: p, SHA256: sum}
}

func TestLocalInstallRollRevertRemove(t *testing.T) {
	if testing.Short() {
		t.Skip("starts dwk replicas")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	d := deploy.New()
	art := artifact(t)
	a, b := localHost(t, "a"), localHost(t, "b")

	out, err := d.Apply(ctx, deploy.Plan{Artifact: art, Add: []*deploy.Host{a, b}, ReadyTimeout: time.Minute})
	if err != nil {
		t.Fatalf("add: %v", err)
	}
	for _, h := range []*deploy.Host{a, b} {
		if o := out[h]; !o.Updated || o.Service != deploy.ServiceProcess || o.Version == "" {
			t.Errorf("%s: outcome %+v", h.Name, o)
		}
		obs := d.Observe(ctx, h)
		cfg, _ := config.Decode(h.Config)
		if obs.State != deploy.StateRunning || obs.ConfigHash != cfg.Hash() || obs.ArtifactID != art.ID() {
			t.Errorf("%s: observed %+v, want running with hash %s and artifact %s", h.Name, obs, cfg.Hash(), art.ID())
		}
		if fi, err := os.Stat(filepath.Join(h.InstallDir, "dwk.json")); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: dwk.json: %v %v", h.Name, fi.Mode(), err)
		}
	}

	// Roll both to a new config, one at a time.
	services := map[*deploy.Host]string{a: deploy.ServiceProcess, b: deploy.ServiceProcess}
	for _, h := range []*deploy.Host{a, b} {
		var c config.Config
		json.Unmarshal(h.Config, &c)
		setConfig(t, h, c.Listen.Public, "debug")
	}
	if _, err := d.Apply(ctx, deploy.Plan{Artifact: art, Roll: []*deploy.Host{a, b}, Services: services,
		MaxParallel: 1, MinHealthy: 500 * time.Millisecond, ReadyTimeout: time.Minute}); err != nil {
		t.Fatalf("roll: %v", err)
	}
	drainA, healthyA := lastEvent(t, a, deploy.EventDrain), lastEvent(t, a, deploy.EventHealthy)
	drainB := lastEvent(t, b, deploy.EventDrain)
	if !drainA.Before(healthyA) || !healthyA.Before(drainB) {
		t.Errorf("rollout order: a drained %v, healthy %v; b drained %v", drainA, healthyA, drainB)
	}

	// A config the replica cannot run with (its public port is taken)
	// fails the rollout at a, which is put back; b is not touched.
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	good := a.Config
	setConfig(t, a, busy.Addr().String(), "")
	bHash := d.Observe(ctx, b).ConfigHash
	out, err = d.Apply(ctx, deploy.Plan{Artifact: art, Roll: []*deploy.Host{a, b}, Services: services,
		MaxParallel: 1, ReadyTimeout: 3 * time.Second, AutoRevert: true})
	var he *deploy.HostError
	if !errors.As(err, &he) || he.Host != a.Name || !errors.Is(err, deploy.ErrNotReady) {
		t.Fatalf("bad rollout: err = %v, want a HostError naming %s", err, a.Name)
	}
	if !strings.Contains(err.Error(), "address already in use") {
		t.Errorf("error does not carry the replica's log: %v", err)
	}
	if o := out[a]; !o.Reverted || o.Updated {
		t.Errorf("a: outcome %+v, want reverted", o)
	}
	goodCfg, _ := config.Decode(good)
	if obs := d.Observe(ctx, a); obs.State != deploy.StateRunning || obs.ConfigHash != goodCfg.Hash() {
		t.Errorf("a after revert: %+v, want running the previous config %s", obs, goodCfg.Hash())
	}
	if obs := d.Observe(ctx, b); obs.ConfigHash != bHash {
		t.Errorf("b was touched by a failed rollout: %+v", obs)
	}

	// Removing leaves nothing behind.
	if _, err := d.Apply(ctx, deploy.Plan{Artifact: art, Remove: []*deploy.Host{a, b}, Services: services}); err != nil {
		t.Fatalf("remove: %v", err)
	}
	for _, h := range []*deploy.Host{a, b} {
		if _, err := os.Stat(h.InstallDir); !os.IsNotExist(err) {
			entries, _ := os.ReadDir(h.InstallDir)
			t.Errorf("%s: install dir left behind: %v %v", h.Name, err, entries)
		}
		if obs := d.Observe(ctx, h); obs.State != deploy.StateMissing {
			t.Errorf("%s: observed %+v after remove", h.Name, obs)
		}
		c := http.Client{Timeout: time.Second}
		if _, err := c.Get("http://" + h.AdminAddr + "/livez"); err == nil {
			t.Errorf("%s: replica still answers after remove", h.Name)
		}
	}
}

func lastEvent(t *testing.T, h *deploy.Host, name string) time.Time {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(h.InstallDir, "deploy.log"))
	if err != nil {
		t.Fatal(err)
	}
	evs, err := deploy.ParseEvents(string(b))
	if err != nil {
		t.Fatal(err)
	}
	var last time.Time
	for _, e := range evs {
		if e.Name == name {
			last = e.Time
		}
	}
	if last.IsZero() {
		t.Fatalf("%s: no %q event in deploy.log:\n%s", h.Name, name, b)
	}
	return last
}
