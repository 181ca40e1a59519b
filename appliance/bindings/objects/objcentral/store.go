package objcentral

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/appliance/process/sqlitedb"
	"github.com/dwk/fleet/appliance/worker"
)

// Shard is one libSQL server (primary) object databases may live on.
type Shard struct {
	// Name identifies the shard in rendezvous hashing. Every replica must
	// list the same shards under the same names; the Hrana URL is a good
	// name.
	Name string
	// Client addresses the server's primary (reads and writes go there).
	// Its namespace is ignored: each object gets a client for its own
	// database with WithNamespace, sharing this client's connections and
	// round-trip counter. Use a client of its own, not the coordination
	// store's, so object traffic and coordination traffic are counted
	// apart.
	Client *hranaclient.Client
	// Admin creates namespaces on the server.
	Admin *libsqladmin.Client
}

// StoreConfig configures a Store.
type StoreConfig struct {
	// Shards are the servers objects are spread over (the object_shards
	// of the configuration). At least one. Each object lives on the shard
	// rendezvous hashing of its id picks among them when its rows are
	// made, and stays there: Open looks for them on the other shards
	// before making them, so adding a shard later moves no data (it only
	// takes new objects).
	Shards []Shard
	// NamespacePrefix starts the name of every database the store makes
	// (packs) or finds (an object's own, made by an earlier version);
	// fleets sharing a libSQL server need different prefixes. 1 to 20
	// characters from a-z, 0-9, '-' and '_'. Default: "do-".
	NamespacePrefix string
	// CacheDir holds the local replicas of the objects this replica holds
	// (and, within CacheBytes, of objects it held before). Default: a new
	// temporary directory, removed by Close.
	CacheDir string
	// CacheBytes is the budget for replicas of objects not held here; the
	// least recently used are deleted past it. Default: DefaultCacheBytes.
	CacheBytes int64
	// CommitStreams is how many held objects at once keep a Hrana stream
	// over WebSocket to their primary for their commits (see
	// hranaclient.WSStream); the others commit over HTTP. Each open stream
	// counts against the libSQL server's stream limit. Default:
	// DefaultCommitStreams; negative: none.
	CommitStreams int
	// Logger receives database creations. Default: slog.Default().
	Logger *slog.Logger
}

// DefaultCommitStreams is the default StoreConfig.CommitStreams: with the
// libSQL server's default stream limit (128), even a fleet of several
// replicas leaves most streams for HTTP requests, which fail when they
// find none free.
const DefaultCommitStreams = 8

// commitStreamIdle is how long a commit stream stays open without a
// commit.
const commitStreamIdle = 10 * time.Second

// Store is the central objects.ObjectStore: each object it opens is served
// from a local replica (DB) synced from the object's rows at its primary. It
// holds no goroutines; it is safe for concurrent use.
type Store struct {
	shards   []Shard
	names    []string
	prefix   string
	cache    *cache
	counters *counters
	streams  *hranaclient.WSLimit // nil: commits go over HTTP
	packs    packs
	preps    preps
	log      *slog.Logger

	firstsMu sync.Mutex
	firsts   map[string]objects.Lease // objects opened under their first lease, until it ends
}

var _ objects.ObjectStore = (*Store)(nil)

// NewStore checks cfg and returns a store. It does no I/O.
func NewStore(cfg StoreConfig) (*Store, error) {
	if cfg.NamespacePrefix == "" {
		cfg.NamespacePrefix = DefaultNamespacePrefix
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	var errs []error
	if len(cfg.Shards) == 0 {
		errs = append(errs, errors.New("at least one shard is required"))
	}
	seen := map[string]bool{}
	names := make([]string, len(cfg.Shards))
	for i, s := range cfg.Shards {
		switch {
		case s.Name == "":
			errs = append(errs, fmt.Errorf("shard %d: name is required", i))
		case seen[s.Name]:
			errs = append(errs, fmt.Errorf("shard %d: duplicate name %q", i, s.Name))
		}
		if s.Client == nil || s.Admin == nil {
			errs = append(errs, fmt.Errorf("shard %d (%s): client and admin client are required", i, s.Name))
		}
		seen[s.Name] = true
		names[i] = s.Name
	}
	if err := validPrefix(cfg.NamespacePrefix); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("objcentral store: %w", err)
	}
	st := &Store{
		shards: cfg.Shards, names: names, prefix: cfg.NamespacePrefix,
		cache: newCache(cfg.CacheDir, cfg.CacheBytes), counters: &counters{}, log: cfg.Logger.With("component", "objcentral"),
	}
	switch {
	case cfg.CommitStreams == 0:
		st.streams = hranaclient.NewWSLimit(DefaultCommitStreams)
	case cfg.CommitStreams > 0:
		st.streams = hranaclient.NewWSLimit(cfg.CommitStreams)
	}
	return st, nil
}

// Namespace is the name of object id's rows: the key of its rows in its
// pack, or the name of its database when an earlier version made it one.
func (s *Store) Namespace(id worker.ObjectID) string { return namespaceName(s.prefix, id) }

// ranked returns the shards in rendezvous order for id: the first is
// where a new object's rows go.
func (s *Store) ranked(id worker.ObjectID) []Shard {
	order := objectid.Rank(objectid.ID(id.Bytes()), s.names)
	out := make([]Shard, len(order))
	for i, name := range order {
		for _, sh := range s.shards {
			if sh.Name == name {
				out[i] = sh
				break
			}
		}
	}
	return out
}

// Open implements objects.ObjectStore. In one round trip it raises the
// object's stored epoch to lease.Epoch() and fetches the pages the local
// replica lacks: none when the replica is current, those written since
// its version when it is behind, all of them when it is missing or not
// trusted. A new object's first holder (epoch 1) sends nothing: its copy
// starts empty, and its first confirmation (which every event's output
// waits for) makes the object's rows; it fails if they exist (the
// coordination database was replaced), and the next open under the same
// lease syncs them. Open fails with an error wrapping objects.ErrFenced
// if a holder with a higher epoch has opened the object already. The
// replica then holds every write any earlier holder committed
// (sync-before-serve). What the placer prepared while it acquired the
// lease (prepare.go) is used.
func (s *Store) Open(ctx context.Context, id worker.ObjectID, lease objects.Lease) (objects.ObjectDB, error) {
	if lease == nil || lease.Epoch() < 1 {
		return nil, fmt.Errorf("open object %s: %w", id, ErrNoEpoch)
	}
	epoch := lease.Epoch()
	name := s.Namespace(id)
	p := s.takePrepared(name, nil)
	if p == nil {
		p = &prepared{}
		p.path, p.local, p.err = s.cache.acquire(name)
	}
	if p.err != nil {
		return nil, fmt.Errorf("open object %s: %w", id, p.err)
	}
	db, err := s.open(ctx, id, name, p, epoch, lease)
	if err != nil {
		p.discard()
		s.cache.release(name, nil)
		return nil, fmt.Errorf("open object %s (%s, epoch %d): %w", id, name, epoch, err)
	}
	return db, nil
}

// open syncs the replica at p.path, described by p.local, and opens it.
func (s *Store) open(ctx context.Context, id worker.ObjectID, name string, p *prepared, epoch int64, lease objects.Lease) (*DB, error) {
	path, local := p.path, p.local
	shards := s.ranked(id)
	if epoch == 1 && local == nil && s.firstOpen(name, lease) {
		// The object's first tenure: it has no rows anywhere yet. Its
		// copy starts empty, and its first confirmation makes its rows
		// in its pack (it finds them there if the coordination database
		// was replaced, and fails).
		at, err := s.packHome(ctx, shards[0], id, name)
		if err != nil {
			return nil, err
		}
		db, err := s.emptyCopy(ctx, name, p, at, lease)
		if err == nil {
			s.counters.countOpen(nil, head{gen: db.gen}, 0)
		}
		return db, err
	}
	p.discard()
	at, res, err := s.find(ctx, id, name, shards, epoch, local)
	if err != nil {
		return nil, err
	}
	legacy := res.legacy && res.head.version == 0
	s.counters.countOpen(local, res.head, len(res.pages))
	if !current(local, res.head) || legacy {
		if legacy {
			local = nil
		}
		if err := applyPages(path, local, res.head, res.pages); err != nil {
			return nil, fmt.Errorf("sync the local copy: %w", err)
		}
	}
	db, err := openDB(ctx, name, path, nil, at, epoch, lease, res.head, s.cache, s.counters)
	if err == nil && s.streams != nil {
		db.ws = at.c.WSStream(commitStreamIdle, s.streams)
	}
	if err != nil || !legacy {
		return db, err
	}
	if err := importLegacy(ctx, at.c, db); err != nil {
		db.local.Close()
		return nil, err
	}
	if err := db.Confirm(ctx); err != nil {
		db.local.Close()
		return nil, fmt.Errorf("import the earlier tables: %w", err)
	}
	s.log.Info("imported an object database from the earlier row format", "namespace", name)
	return db, nil
}

// Close removes the replicas' directory when it is a temporary one.
func (s *Store) Close() error { return s.cache.close() }

// find opens the object's rows where they are, in one round trip per
// place looked at: its pack on the first shard, where objects made by
// this version are (looked at last when the local copy says it came from
// a database of its own); a database of its own, made by an earlier
// version, on any shard; its pack on the other shards (made before the
// shard list changed). Found nowhere (its first holder made no rows, or
// they were lost with the database), its rows are made in its pack on the
// first shard.
func (s *Store) find(ctx context.Context, id worker.ObjectID, name string, shards []Shard, epoch int64, local *copyMeta) (home, openResult, error) {
	packFirst := local == nil || local.Packed
	if packFirst {
		at, err := s.packHome(ctx, shards[0], id, name)
		if err != nil {
			return home{}, openResult{}, err
		}
		res, err := openPrimary(ctx, at, epoch, local, false)
		if !errors.Is(err, errNotHere) {
			return at, res, err
		}
	}
	for _, sh := range shards {
		at := home{c: sh.Client.WithNamespace(name), lay: &solo, obj: name}
		res, err := openPrimary(ctx, at, epoch, local, true)
		if !isNamespaceMissing(err) {
			return at, res, err
		}
	}
	for i, sh := range shards {
		if i == 0 && packFirst {
			continue
		}
		at, err := s.packHome(ctx, sh, id, name)
		if err != nil {
			return home{}, openResult{}, err
		}
		res, err := openPrimary(ctx, at, epoch, local, false)
		if !errors.Is(err, errNotHere) {
			return at, res, err
		}
	}
	at, err := s.packHome(ctx, shards[0], id, name)
	if err != nil {
		return home{}, openResult{}, err
	}
	res, err := openPrimary(ctx, at, epoch, local, true)
	if err == nil {
		s.log.Debug("made an object's rows", "object", name, "at", at.where(), "shard", shards[0].Name)
	}
	return at, res, err
}

// firstOpen reports whether this is the first open of object name under
// lease, and remembers it until the lease ends: a copy that was opened
// under the lease before may have been committed, closed and evicted. A
// lease that ended, or does not say when it ends, never opens an object
// as new.
func (s *Store) firstOpen(name string, lease objects.Lease) bool {
	lc, ok := lease.(interface{ Context() context.Context })
	if !ok || lc.Context().Err() != nil {
		return false
	}
	s.firstsMu.Lock()
	defer s.firstsMu.Unlock()
	if s.firsts[name] == lease {
		return false
	}
	if s.firsts == nil {
		s.firsts = map[string]objects.Lease{}
	}
	s.firsts[name] = lease
	context.AfterFunc(lc.Context(), func() {
		s.firstsMu.Lock()
		defer s.firstsMu.Unlock()
		if s.firsts[name] == lease {
			delete(s.firsts, name)
		}
	})
	return true
}

// emptyCopy opens a new object's local copy empty (the one p prepared,
// or one it makes), under a new generation, to be set up at at with its
// first commit. It does no I/O beyond the local copy.
func (s *Store) emptyCopy(ctx context.Context, name string, p *prepared, at home, lease objects.Lease) (*DB, error) {
	h := head{gen: newGeneration()}
	if p.empty == nil {
		if err := objlocal.RemoveFiles(p.path); err != nil {
			return nil, fmt.Errorf("clear the local copy: %w", err)
		}
		if err := sqlitedb.CreateEmpty(p.path, false); err != nil {
			return nil, fmt.Errorf("make the local copy: %w", err)
		}
	}
	db, err := openDB(ctx, name, p.path, p.empty, at, 1, lease, h, s.cache, s.counters)
	if err != nil {
		return nil, err
	}
	p.empty = nil // db's now
	db.init = setupStmts(at, 1, h.gen)
	if s.streams != nil {
		db.ws = at.c.WSStream(commitStreamIdle, s.streams)
	}
	return db, nil
}

// isNamespaceMissing recognises a request to a database that does not
// exist: NAMESPACE_NOT_FOUND from dwk libsql, sqld's "Namespace `x`
// doesn't exist" (sent with 404 or 400 depending on the version).
func isNamespaceMissing(err error) bool {
	if hranaclient.IsCode(err, hrana.CodeNamespaceNotFound) {
		return true
	}
	var he *hranaclient.Error
	if !errors.As(err, &he) || he.Status == 0 {
		return false
	}
	m := strings.ToLower(he.Message)
	return strings.Contains(m, "namespace") && (strings.Contains(m, "doesn't exist") || strings.Contains(m, "does not exist") || strings.Contains(m, "not found"))
}
