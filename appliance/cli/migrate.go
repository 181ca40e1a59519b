package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/membership"
	"github.com/dwk/fleet/appliance/migrate"
	"github.com/dwk/fleet/appliance/process/datadir"
	"github.com/dwk/fleet/appliance/server/adminclient"
	"github.com/dwk/fleet/appliance/server/storeset"
	"github.com/dwk/fleet/appliance/worker"
)

func init() {
	g := group{
		name: "migrate",
		about: "Copy the D1 databases, KV namespaces, R2 buckets, Durable Objects and queue backlogs between a local-mode data\ndirectory and a fleet's stores.\n" +
			"The stores are those the workers of the fleet's dwk.json bind. A run can be repeated: what the destination holds\n" +
			"already, equal, is skipped; other content under the same name is refused unless --replace. Every copied store is\n" +
			"verified, entry by entry, and a summary table ends the run. See docs/migrate.md.",
		subs: []subcommand{
			{"to-central", "copy a local data directory into a fleet", func(args []string, stdout, stderr io.Writer) int {
				return runMigrate("migrate to-central", true, args, stdout, stderr)
			}},
			{"to-local", "copy a fleet's stores into a local data directory", func(args []string, stdout, stderr io.Writer) int {
				return runMigrate("migrate to-local", false, args, stdout, stderr)
			}},
		},
	}
	Register(Command{Name: "migrate", Short: "copy data between a local data directory and a fleet: to-central|to-local", Run: g.run})
}

func runMigrate(name string, toCentral bool, args []string, stdout, stderr io.Writer) int {
	about := "Copies the stores of the local data directory --data-dir into the fleet --config names."
	if !toCentral {
		about = "Copies the fleet's stores into the local data directory --data-dir (new, or one an earlier run filled)."
	}
	fs := newFlagSet(name, "--data-dir DIR --config dwk.json [--dry-run] [--replace] [--skip-unbound]", about+
		"\nThe data directory must not be in use: stop its dwk serve first.", stderr)
	var f storeFlags
	fs.StringVar(&f.config, "config", "", "the fleet's dwk.json (central mode)")
	var mf migrateFlags
	fs.StringVar(&mf.dataDir, "data-dir", "", "the local-mode data directory")
	fs.StringVar(&f.worker, "worker", "", "only the stores this worker of dwk.json binds")
	fs.StringVar(&mf.name, "name", "", "to-local: the fleet.name a new data directory is marked with, which the dwk.json that serves it names (default: the fleet's name)")
	fs.IntVar(&mf.parallel, "parallel", 8, "entries copied at once")
	fs.BoolVar(&mf.dryRun, "dry-run", false, "list what would be copied, and its size, and copy nothing")
	fs.BoolVar(&mf.replace, "replace", false, "overwrite what the destination holds under the same names")
	fs.BoolVar(&mf.skipUnbound, "skip-unbound", false, "to-central: leave out stores of the data directory that no worker binds, instead of refusing")
	if _, code := parseArgs(fs, args, 0, 0); code >= 0 {
		return code
	}
	if f.config == "" || mf.dataDir == "" {
		fmt.Fprintf(stderr, "dwk %s: --config (the fleet's dwk.json) and --data-dir are required\n", name)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := migrateRun(ctx, &f, toCentral, mf, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "dwk %s: %v\n", name, err)
		return 1
	}
	return 0
}

// migrateFlags are dwk migrate's own flags.
type migrateFlags struct {
	dataDir, name                string
	dryRun, replace, skipUnbound bool
	parallel                     int
}

func migrateRun(ctx context.Context, f *storeFlags, toCentral bool, mf migrateFlags, stdout, stderr io.Writer) error {
	fleet, err := f.open(ctx, kindKV, stderr)
	if err != nil {
		return err
	}
	defer fleet.close()
	name := fleet.cfg.Fleet.Name
	if mf.name != "" {
		name = mf.name
	}
	local, closeLocal, err := openMigrateDir(ctx, mf.dataDir, name, toCentral)
	if err != nil {
		return err
	}
	defer closeLocal()
	stores := fleet.boundStores()
	if toCentral {
		unbound, err := unboundStores(local.d.Path, stores)
		if err != nil {
			return err
		}
		if len(unbound) > 0 && !mf.skipUnbound {
			return fmt.Errorf("the data directory holds %s, which no worker of %s binds: bind them, or pass --skip-unbound to leave them out", strings.Join(unbound, ", "), fleet.path)
		}
	}
	src, dst := migrate.Side{Stores: local.st}, migrate.Side{Stores: fleet.st}
	if hasKind(stores, migrate.KindQueue) {
		lq, ok := local.st.Broker().(queue.Mover)
		if !ok {
			return fmt.Errorf("the data directory's queue broker cannot list its backlog")
		}
		cq, err := storeset.OpenQueues(ctx, fleet.clients)
		if err != nil {
			return err
		}
		defer cq.Close()
		src.Queues, dst.Queues = lq, cq
	}
	if hasKind(stores, migrate.KindObjects) {
		if err := matchSecrets(local.d, fleet.clients.Secret, toCentral); err != nil {
			return err
		}
		lo, err := migrate.OpenLocalObjects(ctx, local.d.Path)
		if err != nil {
			return err
		}
		defer lo.Close()
		co, err := migrate.OpenCentralObjects(ctx, migrate.CentralObjectsConfig{
			Clients: fleet.clients, Coord: fleet.coord, CacheDir: filepath.Join(local.d.Path, "migrate-cache"), TTL: fleet.cfg.Lease.TTL.D(),
			Release: releaseThrough(fleet.cfg, fleet.coord),
		})
		if err != nil {
			return err
		}
		defer func() { co.Close(); os.RemoveAll(filepath.Join(local.d.Path, "migrate-cache")) }()
		src.Objects, dst.Objects = lo, co
	}
	from, to := "local data directory "+local.d.Path, fleet.where
	if !toCentral {
		src, dst, from, to = dst, src, to, from
	}
	o := migrate.Options{Replace: mf.replace, DryRun: mf.dryRun, Parallel: mf.parallel}
	if isTerminal(stderr) {
		o.Progress = func(s migrate.Store, done, total int) {
			fmt.Fprintf(stderr, "\r%-40s %s", s.String(), bar(done, total, 30))
			if done == total {
				fmt.Fprintln(stderr)
			}
		}
	}
	verb := "Copying"
	if mf.dryRun {
		verb = "Comparing"
	}
	fmt.Fprintf(stderr, "%s %d store(s) from %s to %s\n", verb, len(stores), from, to)
	results, err := migrate.Run(ctx, src, dst, stores, o)
	writeMigrateTable(stdout, results, mf.dryRun)
	return err
}

// boundStores are the D1 databases, KV namespaces and R2 buckets the
// target's workers bind, each once, in order.
func (t *target) boundStores() []migrate.Store {
	seen := map[migrate.Store]bool{}
	var out []migrate.Store
	for _, w := range t.workers {
		b := w.cfg.Bindings
		consumed := map[string]string{}
		for _, c := range w.cfg.Consumers {
			consumed[c.Queue] = c.Queue
		}
		for _, m := range []struct {
			kind  string
			names map[string]string
		}{{migrate.KindD1, b.D1}, {migrate.KindKV, b.KV}, {migrate.KindR2, b.R2}, {migrate.KindObjects, b.Objects}, {migrate.KindQueue, b.Queues}, {migrate.KindQueue, consumed}} {
			for _, name := range m.names {
				s := migrate.Store{Kind: m.kind, Name: name}
				if !seen[s] {
					seen[s] = true
					out = append(out, s)
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// migrateDir is a locked local data directory and its stores.
type migrateDir struct {
	d  *datadir.Dir
	st *storeset.Local
}

// hasKind reports whether stores name one of kind.
func hasKind(stores []migrate.Store, kind string) bool {
	for _, s := range stores {
		if s.Kind == kind {
			return true
		}
	}
	return false
}

// matchSecrets checks that the data directory's objects and the fleet's
// are named with one secret (an object's id carries a tag made with it):
// to-central refuses a fleet with another secret than the one the
// directory keeps; to-local keeps the fleet's in a new directory.
func matchSecrets(d *datadir.Dir, fleetSecret string, toCentral bool) error {
	kept, ok, err := d.KeptSecret()
	switch {
	case err != nil:
		return err
	case !ok && toCentral:
		return nil // the local config named it; the fleet's must be the same
	case !ok:
		return d.KeepSecret(fleetSecret)
	case kept != fleetSecret:
		return fmt.Errorf("the data directory's objects are named with the secret in %s, and the fleet uses another: an object id carries a tag made with the secret, so set fleet.secret to the directory's on every replica (or migrate into a data directory of its own)", filepath.Join(d.Path, datadir.SecretFile))
	}
	return nil
}

// openMigrateDir locks the data directory dir and opens its stores. A
// directory with data keeps the fleet name its marker holds; a new one
// (to-local) is marked for fleet.
func openMigrateDir(ctx context.Context, dir, fleet string, mustExist bool) (*migrateDir, func(), error) {
	name := fleet
	b, err := os.ReadFile(filepath.Join(dir, datadir.MarkerFile))
	switch {
	case err == nil:
		var m datadir.Marker
		if err := json.Unmarshal(b, &m); err == nil && m.Fleet != "" {
			name = m.Fleet
		}
	case errors.Is(err, os.ErrNotExist) && mustExist:
		return nil, nil, fmt.Errorf("%s is not a dwk data directory (no %s): pass the directory dwk serve uses (storage.data_dir)", dir, datadir.MarkerFile)
	}
	d, err := datadir.Open(dir, config.ModeLocal, name)
	if err != nil {
		if errors.Is(err, datadir.ErrLocked) {
			return nil, nil, fmt.Errorf("%w; a migration needs the directory to itself", err)
		}
		return nil, nil, err
	}
	st, err := storeset.OpenLocal(ctx, d.Path, storeset.LocalOptions{})
	if err != nil {
		d.Close()
		return nil, nil, err
	}
	return &migrateDir{d: d, st: st}, func() { st.Close(); d.Close() }, nil
}

// unboundStores lists the stores a data directory holds that are not in
// bound: its d1/*.sqlite, kv/*.sqlite and r2/* (storeset.Local's layout).
func unboundStores(dir string, bound []migrate.Store) ([]string, error) {
	known := map[migrate.Store]bool{}
	for _, s := range bound {
		known[s] = true
	}
	var out []string
	for _, k := range []struct{ kind, glob string }{
		{migrate.KindD1, "d1/*.sqlite"}, {migrate.KindKV, "kv/*.sqlite"}, {migrate.KindR2, "r2/*"}, {migrate.KindObjects, "objects/*"},
	} {
		matches, err := filepath.Glob(filepath.Join(dir, k.glob))
		if err != nil {
			return nil, err
		}
		for _, m := range matches {
			name := strings.TrimSuffix(filepath.Base(m), ".sqlite")
			if k.kind == migrate.KindR2 || k.kind == migrate.KindObjects {
				if fi, err := os.Stat(m); err != nil || !fi.IsDir() {
					continue
				}
			}
			if s := (migrate.Store{Kind: k.kind, Name: name}); !known[s] {
				out = append(out, s.String())
			}
		}
	}
	return out, nil
}

// bar draws done of total as a progress bar of width cells.
func bar(done, total, width int) string {
	if total <= 0 {
		total = 1
	}
	n := done * width / total
	return fmt.Sprintf("[%s%s] %d/%d", strings.Repeat("#", n), strings.Repeat(".", width-n), done, total)
}

// writeMigrateTable writes one row per store.
func writeMigrateTable(w io.Writer, results []migrate.Result, dryRun bool) {
	if len(results) == 0 {
		fmt.Fprintln(w, "No stores to copy: no worker binds a D1 database, KV namespace, R2 bucket, Durable Object class or queue.")
		return
	}
	header := []string{"store", "name", "entries", "bytes", "copied", "replaced", "skipped", "verified", "time"}
	if dryRun {
		header = []string{"store", "name", "entries", "bytes", "to copy", "to replace", "already there"}
	}
	var rows [][]string
	for _, r := range results {
		row := []string{r.Kind, r.Name, strconv.Itoa(r.Entries), strconv.FormatInt(r.Bytes, 10)}
		if dryRun {
			row = append(row, strconv.Itoa(r.Entries-r.Skipped-r.Conflicts), strconv.Itoa(r.Conflicts), strconv.Itoa(r.Skipped))
		} else {
			v := "no"
			if r.Verified {
				v = "yes"
			}
			row = append(row, strconv.Itoa(r.Copied), strconv.Itoa(r.Replaced), strconv.Itoa(r.Skipped), v, r.Took.Round(time.Millisecond).String())
		}
		rows = append(rows, row)
	}
	writeTable(w, header, rows)
	for _, r := range results {
		if n := len(r.NewETags); n > 0 {
			fmt.Fprintf(w, "Note: %s: %d multipart object(s) have a new ETag: their bodies and metadata are the same, but no uniform part size reproduces their ETags: %s\n",
				r.Store, n, strings.Join(r.NewETags[:min(n, 5)], ", "))
		}
	}
}

// releaseThrough asks a replica of the fleet cfg configures, found in
// its coordination store's member records, to hand an object back,
// through its admin API with cfg's admin token.
func releaseThrough(cfg *config.Config, cs *coord.Store) migrate.ReleaseFunc {
	return func(ctx context.Context, holder string, id worker.ObjectID) error {
		token, err := cfg.Admin.Token.Resolve()
		if err != nil || token == "" {
			return fmt.Errorf("the replica holds it and admin.token is not set in the fleet's dwk.json, so it cannot be asked to let go: set it, or stop the fleet's traffic")
		}
		m, ok, err := membership.NewRegistry(cs, nil).Get(ctx, holder)
		if err != nil {
			return err
		}
		base := adminclient.MemberURL(m, cfg.Listen.InternalTLS != nil)
		if !ok || base == "" {
			return fmt.Errorf("member %s has no admin API on record", holder)
		}
		hc, err := adminclient.ForFleet(cfg, 30*time.Second)
		if err != nil {
			return err
		}
		q := url.Values{"class": {id.Namespace()}, "id": {id.String()}}
		return adminclient.Client{Token: token, HTTP: hc}.Call(ctx, http.MethodPost, base, "/admin/objects/release?"+q.Encode(), nil)
	}
}
