package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"

	"github.com/dwk/fleet/appliance/central"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/workersecrets"
	"github.com/dwk/fleet/appliance/jsworker/project"
	"github.com/dwk/fleet/appliance/jsworker/wrangler"
)

// secretFlags are the flags of the secret commands: the fleet's
// dwk.json and the worker, named as wrangler names it (--name).
type secretFlags struct {
	config, worker string
}

// secretFlagSet returns a secret command's flag set with its flags
// registered.
func secretFlagSet(name, usage, about string, stderr io.Writer) (*secretFlags, *flag.FlagSet) {
	fs := newFlagSet(name, usage, about, stderr)
	f := &secretFlags{}
	fs.StringVar(&f.config, "config", "", "the fleet's dwk.json (central mode)")
	fs.StringVar(&f.config, "c", "", "short for --config")
	fs.StringVar(&f.worker, "name", "", "the worker, as dwk.json (or its project's wrangler file) names it; may be left out when dwk.json has one worker")
	return f, fs
}

// secretTarget is the worker a secret command works on and, once
// dialled, its fleet's secret store.
type secretTarget struct {
	path   string
	cfg    *config.Config
	worker string
	wc     config.Worker
	store  *workersecrets.Store
	// closers release what dial opened, last first.
	closers []func()
}

// errLocalSecrets says what to do instead in local mode, where there is
// no fleet to store secrets in (wrangler has no local secret put either).
const errLocalSecrets = "dwk secret works on a fleet (storage.mode \"central\"); in local mode put the value in .dev.vars next to the wrangler file, or in dwk.json's workers[].bindings.secrets, and restart dwk serve"

// resolve reads the configuration and picks the worker, with no I/O
// beyond reading files.
func (f *secretFlags) resolve(ctx context.Context, stderr io.Writer) (*secretTarget, error) {
	path := f.config
	if path == "" {
		found, err := wrangler.Find(".")
		if err != nil {
			return nil, errors.New("pass --config dwk.json: the secret commands work on the fleet a central-mode dwk.json names")
		}
		path = found
	}
	if isWranglerPath(path) {
		return nil, fmt.Errorf("%s is a Workers project's wrangler file, served in local mode: %s", path, errLocalSecrets)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg, _, err := loadConfigWith(ctx, path, loadOptions{log: log})
	if err != nil {
		return nil, err
	}
	if cfg.Storage.Mode != config.ModeCentral {
		return nil, fmt.Errorf("%s is a %s-mode configuration: %s", path, cfg.Storage.Mode, errLocalSecrets)
	}
	t := &secretTarget{path: path, cfg: cfg}
	if err := t.pick(f.worker); err != nil {
		return nil, err
	}
	return t, nil
}

// jsonVars are the vars of the worker's project that are not strings
// (as JSON), which wc does not hold.
func (t *secretTarget) jsonVars() (map[string]string, error) {
	if t.wc.Project == "" {
		return nil, nil
	}
	file, err := project.Resolve(filepath.Dir(t.path), t.wc.Project)
	if err != nil {
		return nil, err
	}
	p, err := project.Describe(file, project.Options{Env: t.wc.Env})
	if err != nil {
		return nil, err
	}
	return p.JS.Bindings.JSONVars, nil
}

// pick chooses the worker named (or the only one when name is "").
func (t *secretTarget) pick(name string) error {
	var names []string
	for _, wc := range t.cfg.Workers {
		names = append(names, wc.Name)
		if wc.Name == name || (name == "" && len(t.cfg.Workers) == 1) {
			t.worker, t.wc = wc.Name, wc
		}
	}
	switch {
	case t.worker != "":
		return nil
	case name == "":
		return fmt.Errorf("%s has %d workers (%q): pass --name WORKER", t.path, len(names), names)
	}
	return fmt.Errorf("--name %s: %s has no such worker; its workers are %q", name, t.path, names)
}

// configured names the secrets the worker's configuration gives a value
// (dwk.json's bindings.secrets, its project's .dev.vars).
func (t *secretTarget) configured() map[string]bool {
	out := map[string]bool{}
	for name, ref := range t.wc.Bindings.Secrets {
		if ref != nil {
			out[name] = true
		}
	}
	return out
}

// clash refuses a secret named as one of the worker's other bindings,
// which would hide it (Cloudflare refuses a name already in use too).
func (t *secretTarget) clash(secret string) error {
	jsonVars, err := t.jsonVars()
	if err != nil {
		return err
	}
	b := t.wc.Bindings
	for _, k := range []struct {
		kind string
		m    map[string]string
	}{
		{"vars", b.Vars}, {"vars", jsonVars}, {"d1", b.D1}, {"r2", b.R2}, {"kv", b.KV}, {"queues", b.Queues}, {"objects", b.Objects}, {"services", b.Services},
	} {
		if _, ok := k.m[secret]; ok {
			return fmt.Errorf("%s is already a %s binding of worker %s: a secret needs a name of its own", secret, k.kind, t.worker)
		}
	}
	return nil
}

// dial opens the fleet's coordination store and its secret store.
func (t *secretTarget) dial(ctx context.Context, stderr io.Writer) error {
	clients, err := central.Dial(ctx, t.cfg, central.Options{})
	if err != nil {
		return err
	}
	t.closers = append(t.closers, clients.Close)
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cs, err := coord.Open(ctx, clients.Coord, coord.Options{SweepInterval: -1, Logger: log})
	if err != nil {
		t.close()
		return fmt.Errorf("%w: has the fleet been provisioned (dwk provision, or terraform apply)?", err)
	}
	t.closers = append(t.closers, func() { cs.Close(context.Background()) })
	if t.store, err = workersecrets.New(cs, []byte(clients.Secret), t.cfg.Fleet.Name); err != nil {
		t.close()
		return err
	}
	return nil
}

// close releases what dial opened.
func (t *secretTarget) close() {
	for i := len(t.closers) - 1; i >= 0; i-- {
		t.closers[i]()
	}
	t.closers = nil
}
