package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/central"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/jsworker/artifact"
	"github.com/dwk/fleet/appliance/jsworker/project"
	"github.com/dwk/fleet/appliance/jsworker/wrangler"
	"github.com/dwk/fleet/appliance/server/storeset"
	"github.com/dwk/fleet/appliance/worker"
)

// storeFlags are the flags of every command that works on stores
// (dwk d1, kv, r2, queues): which configuration names the stores and
// bindings, and whether the stores are a local data directory or a fleet.
type storeFlags struct {
	config, env, dataDir, worker string
	local, remote                bool
}

func (f *storeFlags) register(fs *flag.FlagSet) {
	const cfg = "a Workers project's wrangler.toml, wrangler.json or wrangler.jsonc (with --local), or a fleet's dwk.json (default: the wrangler file in this directory)"
	fs.StringVar(&f.config, "config", "", cfg)
	fs.StringVar(&f.config, "c", "", "short for --config")
	fs.StringVar(&f.env, "env", "", "the wrangler environment whose bindings resolve names (wrangler's --env)")
	fs.StringVar(&f.env, "e", "", "short for --env")
	fs.BoolVar(&f.local, "local", false, "work on a local-mode data directory, the one dwk serve uses (see --data-dir)")
	fs.BoolVar(&f.remote, "remote", false, "work on the stores of the fleet --config names (what happens without --local)")
	fs.StringVar(&f.dataDir, "data-dir", "", "with --local: the data directory (default: storage.data_dir, "+config.DefaultDataDir+")")
	fs.StringVar(&f.dataDir, "persist-to", "", "wrangler's name for --data-dir")
	fs.StringVar(&f.worker, "worker", "", "the worker of dwk.json whose bindings resolve names, when several workers bind the name")
}

// storeKind is the kind of store a command works on; how the stores are
// opened depends on it.
type storeKind int

const (
	kindD1 storeKind = iota
	kindKV
	kindR2
	kindQueues
)

// storeSet is what both modes' stores provide (storeset.Local,
// storeset.Central).
type storeSet interface {
	D1(name string) (worker.D1Backend, error)
	R2(name string) (worker.R2Bucket, error)
	KV(name string) (worker.KVNamespace, error)
	Broker() queue.Broker
}

var (
	_ storeSet = (*storeset.Local)(nil)
	_ storeSet = (*storeset.Central)(nil)
)

// target is the configuration a command resolves names with and the
// stores it works on.
type target struct {
	// path is the configuration file.
	path string
	cfg  *config.Config
	// workers are the workers whose bindings resolve names: all of the
	// configuration's, or the one --worker names.
	workers []boundWorker
	st      storeSet
	// where says which stores, for messages: "local data directory
	// /x/dwk-data" or "fleet prod".
	where string
	// local is set for a local data directory.
	local bool
	// clients and coord are a fleet's store clients and, when the command
	// works on KV, its coordination store.
	clients *central.Clients
	coord   *coord.Store
	closers []func() error
}

// boundWorker is one worker of the configuration, with its bindings
// (those of its project merged in) and, for a Workers project, its
// wrangler file.
type boundWorker struct {
	cfg config.Worker
	// wr is the worker's wrangler project; nil for a Go worker.
	wr *wrangler.Project
	// art is the built project the worker runs, when it runs one.
	art *artifact.Artifact
	// dir is the directory of the file that declared the worker.
	dir string
}

// close releases the stores, last opened first.
func (t *target) close() {
	for i := len(t.closers) - 1; i >= 0; i-- {
		t.closers[i]()
	}
}

// open reads the configuration, picks the workers and opens the stores
// a command of kind works on.
func (f *storeFlags) open(ctx context.Context, kind storeKind, stderr io.Writer) (*target, error) {
	if f.local && f.remote {
		return nil, errors.New("--local and --remote are exclusive: --local works on a data directory, --remote (the default) on a fleet")
	}
	path := f.config
	if path == "" {
		found, err := wrangler.Find(".")
		if err != nil {
			return nil, fmt.Errorf("%w: pass --config wrangler.toml with --local for a Workers project's local data, or --config dwk.json for a fleet", err)
		}
		path = found
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg, _, err := loadConfigWith(ctx, path, loadOptions{env: f.env, log: log})
	if err != nil {
		return nil, err
	}
	t := &target{path: path, cfg: cfg, local: f.local}
	if err := t.bindWorkers(f.worker); err != nil {
		return nil, err
	}
	switch mode := cfg.Storage.Mode; {
	case f.local && mode != config.ModeLocal:
		return nil, fmt.Errorf("%s is a %s-mode configuration, with no data directory: drop --local to work on fleet %q", path, mode, cfg.Fleet.Name)
	case !f.local && mode == config.ModeLocal:
		return nil, fmt.Errorf("%s names local-mode stores: add --local (and --data-dir DIR when they are not in %s) to work on its data directory, or pass --config dwk.json for a fleet", path, cfg.Storage.DataDir)
	}
	if f.local {
		dir := cfg.Storage.DataDir
		if f.dataDir != "" {
			dir = f.dataDir
		}
		st, closeDir, err := openLocalDir(ctx, dir, cfg.Fleet.Name, kind, log)
		if err != nil {
			return nil, err
		}
		abs, _ := filepath.Abs(dir)
		t.st, t.where, t.closers = st, "local data directory "+abs, []func() error{closeDir}
		return t, nil
	}
	if f.dataDir != "" {
		return nil, errors.New("--data-dir is for --local: a fleet's stores are the libSQL server and the bucket its dwk.json names")
	}
	if err := t.openCentral(ctx, kind, log); err != nil {
		t.close()
		return nil, err
	}
	return t, nil
}

// openCentral dials the fleet's stores: the coordination store for KV
// and the queue database for queues, only when kind needs them.
func (t *target) openCentral(ctx context.Context, kind storeKind, log *slog.Logger) error {
	clients, err := central.Dial(ctx, t.cfg, central.Options{})
	if err != nil {
		return err
	}
	t.closers = append(t.closers, func() error { clients.Close(); return nil })
	t.clients = clients
	sc := storeset.CentralConfig{Config: t.cfg, Clients: clients}
	switch kind {
	case kindKV:
		cs, err := coord.Open(ctx, clients.Coord, coord.Options{SweepInterval: -1, Logger: log})
		if err != nil {
			return fmt.Errorf("%w: has the fleet been provisioned (dwk provision, or terraform apply)?", err)
		}
		t.closers = append(t.closers, func() error { return cs.Close(context.Background()) })
		sc.Coord, t.coord = cs, cs
	case kindQueues:
		b, err := storeset.OpenQueues(ctx, clients)
		if err != nil {
			return err
		}
		t.closers = append(t.closers, b.Close)
		sc.Broker = b
	}
	st := storeset.NewCentral(sc)
	t.closers = append(t.closers, st.Close)
	t.st, t.where = st, fmt.Sprintf("fleet %q", t.cfg.Fleet.Name)
	return nil
}

// bindWorkers reads the wrangler file of every project worker and keeps
// the worker name picks (all when name is "").
func (t *target) bindWorkers(name string) error {
	base := ""
	if !isWranglerPath(t.path) {
		base = filepath.Dir(t.path)
	}
	var names []string
	for i, wc := range t.cfg.Workers {
		names = append(names, wc.Name)
		if name != "" && wc.Name != name {
			continue
		}
		bw := boundWorker{cfg: wc, dir: filepath.Dir(t.path)}
		if wc.Project != "" {
			file, err := project.Resolve(base, wc.Project)
			if err != nil {
				return fmt.Errorf("workers[%d].project: %w", i, err)
			}
			p, err := project.Describe(file, project.Options{Env: wc.Env})
			if err != nil {
				return fmt.Errorf("workers[%d].project: %w", i, err)
			}
			bw.wr, bw.dir, bw.art = p.Wrangler, p.Wrangler.Dir, p.Artifact()
		}
		t.workers = append(t.workers, bw)
	}
	if name != "" && len(t.workers) == 0 {
		return fmt.Errorf("--worker %s: %s has no such worker; its workers are %q", name, t.path, names)
	}
	return nil
}
