package libsql

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/libsql/sqlite"
	"github.com/dwk/fleet/appliance/process/sqlitedb"
)

// Namespace errors the admin API maps to HTTP statuses.
var (
	errNamespaceExists    = errors.New("namespace already exists")
	errNamespaceNotFound  = errors.New("namespace does not exist")
	errNamespacesDisabled = errors.New("namespaces are disabled (start dwk libsql with --enable-namespaces)")
	errDeleteDefault      = errors.New("the default namespace cannot be deleted")
	errCheckpointBusy     = errors.New("checkpoint could not complete: open transactions still use the WAL")
)

// nsStore owns the namespaces under <db-path>/dbs. Each namespace is the
// directory dbs/<name> holding the SQLite file "data" (and its -wal and
// -shm files) and config.json. Directories whose name starts with "." are
// work in progress: a creation (".<name>.new-*") or a deletion
// (".<name>.del-*") that a crash interrupted; they are removed on load.
type nsStore struct {
	root        string
	synchronous string
	busyTimeout time.Duration
	maxIdle     int
	idle        *idleLRU
	// maxLength caps strings and blobs, so that no statement can build a
	// value larger than a request or response may carry.
	maxLength int
	// backup, when set, is told of changes; connections then never
	// checkpoint on their own.
	backup backupHooks
	// spares are empty namespaces made ahead of time; nil when disabled.
	spares *spares
	// rootSync makes renames in root durable, one fsync for many.
	rootSync groupSync

	mu       sync.Mutex
	m        map[string]*namespace
	creating map[string]chan struct{} // names being created; closed when done
	// warming counts the connections being opened for namespaces just
	// created.
	warming sync.WaitGroup
}

// maxIdleConns is how many idle connections a namespace keeps.
const maxIdleConns = 8

func newNSStore(dbPath string, cfg Config) *nsStore {
	root := filepath.Join(dbPath, "dbs")
	s := &nsStore{
		root:        root,
		synchronous: cfg.Synchronous,
		busyTimeout: cfg.BusyTimeout,
		maxIdle:     maxIdleConns,
		idle:        newIdleLRU(cfg.MaxIdleConns),
		maxLength:   int(min(max(cfg.MaxBodySize, cfg.MaxResponseSize), 1<<30)),
		m:           map[string]*namespace{},
		creating:    map[string]chan struct{}{},
		rootSync:    groupSync{sync: func() error { return syncDir(root) }},
	}
	if cfg.SpareNamespaces > 0 {
		s.spares = newSpares(root, cfg.SpareNamespaces, func(dir string) error { return initNamespaceDir(dir, nsConfig{}) })
	}
	return s
}

// load opens every namespace found on disk and creates the default one.
func (s *nsStore) load() error {
	if err := os.MkdirAll(s.root, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", s.root, err)
	}
	entries, err := os.ReadDir(s.root)
	if err != nil {
		return fmt.Errorf("list namespaces: %w", err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			if err := os.RemoveAll(filepath.Join(s.root, name)); err != nil {
				return fmt.Errorf("remove unfinished namespace directory %s: %w", name, err)
			}
			continue
		}
		if ValidateNamespace(name) != nil {
			continue // not ours; leave it alone
		}
		// Namespaces on disk open their first connection when used, so
		// that a server with many starts at once; their databases are
		// WAL already (creation switched them).
		ns, err := s.newNamespace(name, filepath.Join(s.root, name))
		if err != nil {
			return err
		}
		s.m[name] = ns
	}
	if _, ok := s.m[DefaultNamespace]; !ok {
		if err := s.create(DefaultNamespace, nsConfig{}); err != nil {
			return err
		}
	}
	return nil
}

// openNamespace opens the namespace in dir and switches its database to
// WAL.
func (s *nsStore) openNamespace(name, dir string) (*namespace, error) {
	ns, err := s.newNamespace(name, dir)
	if err != nil {
		return nil, err
	}
	c, err := ns.pool.get()
	if err != nil {
		return nil, fmt.Errorf("namespace %s: %w", name, err)
	}
	mode, err := queryText(c, "PRAGMA journal_mode=WAL")
	if err == nil && mode != "wal" {
		err = fmt.Errorf("journal mode is %q, want wal", mode)
	}
	ns.pool.put(c, err == nil)
	if err != nil {
		return nil, fmt.Errorf("namespace %s: enable WAL: %w", name, err)
	}
	return ns, nil
}

// newNamespace is the namespace in dir, with its configuration read and no
// connection opened.
func (s *nsStore) newNamespace(name, dir string) (*namespace, error) {
	cfg, err := readConfig(dir)
	if err != nil {
		return nil, fmt.Errorf("namespace %s: %w", name, err)
	}
	keys, err := cfg.parseKeys()
	if err != nil {
		return nil, fmt.Errorf("namespace %s: %w", name, err)
	}
	ns := &namespace{
		name:      name,
		dir:       dir,
		writeGate: make(chan struct{}, 1),
		cfg:       cfg,
		keys:      keys,
		streams:   map[*stream]struct{}{},
		backup:    s.backup,
	}
	path := ns.path()
	ns.pool = &connPool{maxIdle: s.maxIdle, lru: s.idle, open: func() (*sqlite.Conn, error) { return s.openConn(path) }}
	return ns, nil
}

// openConn opens one configured connection.
func (s *nsStore) openConn(path string) (*sqlite.Conn, error) {
	c, err := sqlite.Open(path)
	if err != nil {
		return nil, err
	}
	if err := c.SetBusyTimeout(s.busyTimeout); err != nil {
		c.Close()
		return nil, fmt.Errorf("set busy timeout: %w", err)
	}
	if s.maxLength > 0 {
		c.SetLimit(sqlite.LimitLength, s.maxLength)
	}
	if err := c.Exec("PRAGMA synchronous=" + s.synchronous); err != nil {
		c.Close()
		return nil, fmt.Errorf("set synchronous: %w", err)
	}
	if s.backup != nil {
		// Frames leave the WAL only by the backup's checkpoints, after
		// they are shipped.
		if err := c.Exec("PRAGMA wal_autocheckpoint=0"); err != nil {
			c.Close()
			return nil, fmt.Errorf("disable automatic checkpoints: %w", err)
		}
		if err := c.DisableCheckpointOnClose(); err != nil {
			c.Close()
			return nil, fmt.Errorf("disable checkpoint on close: %w", err)
		}
	}
	return c, nil
}

// queryText returns the first column of the first row of sql as text.
func queryText(c *sqlite.Conn, sql string) (string, error) {
	st, _, err := c.Prepare(sql)
	if err != nil {
		return "", err
	}
	if st == nil {
		return "", nil
	}
	defer st.Finalize()
	row, err := st.Step()
	if err != nil || !row {
		return "", err
	}
	return st.ColumnText(0), nil
}

// get returns the namespace called name.
func (s *nsStore) get(name string) (*namespace, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ns, ok := s.m[name]
	if !ok {
		return nil, fmt.Errorf("%w: %s", errNamespaceNotFound, name)
	}
	return ns, nil
}

// list returns the namespace names in order.
func (s *nsStore) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.m))
	for name := range s.m {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// create makes a new namespace. It builds the directory under a temporary
// name and renames it into place, so a crash never leaves half a namespace.
func (s *nsStore) create(name string, cfg nsConfig) error {
	if err := ValidateNamespace(name); err != nil {
		return err
	}
	if _, err := cfg.parseKeys(); err != nil {
		return err
	}
	// The name is reserved under the lock; the files are made outside
	// it, so that creations (each a few fsyncs) run in parallel.
	s.mu.Lock()
	_, exists := s.m[name]
	other, busy := s.creating[name]
	mine := make(chan struct{})
	if !exists && !busy {
		s.creating[name] = mine
	}
	s.mu.Unlock()
	if busy {
		// Another creation of the name is under way: answer once it is
		// done, so that "exists" means the namespace can be used (clients
		// that create on first use, from several replicas at once, go on
		// to send statements to it).
		return s.awaitCreation(name, other)
	}
	if exists {
		return fmt.Errorf("%w: %s", errNamespaceExists, name)
	}
	ns, err := s.makeNamespace(name, cfg)
	s.mu.Lock()
	delete(s.creating, name)
	if err == nil {
		s.m[name] = ns
	}
	s.mu.Unlock()
	close(mine)
	if err != nil {
		return err
	}
	if s.backup != nil {
		s.backup.Changed(name)
	}
	// A namespace is created to be used: its first request finds a
	// connection open (the file opened, the pragmas set) rather than wait
	// for one.
	s.warming.Add(1)
	go func() {
		defer s.warming.Done()
		ns.pool.warm()
	}()
	return nil
}

// createWait bounds how long a creation waits for another creation of the
// same name to finish.
const createWait = 30 * time.Second

// awaitCreation waits for the creation of name that closes done, and
// reports the namespace as existing if that creation succeeded.
func (s *nsStore) awaitCreation(name string, done <-chan struct{}) error {
	t := time.NewTimer(createWait)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		return fmt.Errorf("create namespace %s: another creation of it has not finished after %v; try again", name, createWait)
	}
	s.mu.Lock()
	_, exists := s.m[name]
	s.mu.Unlock()
	if !exists {
		return fmt.Errorf("create namespace %s: a concurrent creation of it failed; try again", name)
	}
	return fmt.Errorf("%w: %s", errNamespaceExists, name)
}

// makeNamespace renames a spare into place for a namespace with the
// default config, or builds the directory of a new namespace under a
// temporary name and renames it into place, and opens it.
func (s *nsStore) makeNamespace(name string, cfg nsConfig) (*namespace, error) {
	final := filepath.Join(s.root, name)
	if _, err := os.Stat(final); err == nil {
		return nil, fmt.Errorf("%w: %s (directory %s exists)", errNamespaceExists, name, final)
	}
	if cfg.isDefault() {
		if spare := s.spares.take(); spare != "" {
			if err := os.Rename(spare, final); err != nil {
				os.RemoveAll(spare)
				return nil, fmt.Errorf("create namespace %s: %w", name, err)
			}
			if err := s.rootSync.Do(); err != nil {
				return nil, fmt.Errorf("create namespace %s: %w", name, err)
			}
			// A spare's database is WAL already: its first connection
			// opens on first use, as on load.
			return s.newNamespace(name, final)
		}
	}
	tmp := filepath.Join(s.root, "."+name+".new-"+randomSuffix())
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return nil, fmt.Errorf("create namespace %s: %w", name, err)
	}
	if err := initNamespaceDir(tmp, cfg); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("create namespace %s: %w", name, err)
	}
	if err := os.Rename(tmp, final); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("create namespace %s: %w", name, err)
	}
	if err := s.rootSync.Do(); err != nil {
		return nil, fmt.Errorf("create namespace %s: %w", name, err)
	}
	return s.openNamespace(name, final)
}

// initNamespaceDir creates an empty WAL database and the config in dir,
// and syncs them to disk.
func initNamespaceDir(dir string, cfg nsConfig) error {
	if err := sqlitedb.CreateEmpty(filepath.Join(dir, dataFile), true); err != nil {
		return err
	}
	if err := writeConfig(dir, cfg); err != nil {
		return err
	}
	return syncDir(dir)
}

// remove deletes a namespace: new streams are refused at once, open
// streams are interrupted and closed (bounded by ctx), then the directory
// is renamed away and removed.
func (s *nsStore) remove(ctx context.Context, name string) error {
	if name == DefaultNamespace {
		return errDeleteDefault
	}
	s.mu.Lock()
	ns, ok := s.m[name]
	if ok {
		delete(s.m, name)
	}
	s.mu.Unlock()
	if !ok {
		return fmt.Errorf("%w: %s", errNamespaceNotFound, name)
	}
	if err := ns.shutdown(ctx, false); err != nil {
		return fmt.Errorf("delete namespace %s: %w", name, err)
	}
	if s.backup != nil {
		s.backup.Deleted(name)
	}
	trash := filepath.Join(s.root, "."+name+".del-"+randomSuffix())
	if err := os.Rename(ns.dir, trash); err != nil {
		return fmt.Errorf("delete namespace %s: %w", name, err)
	}
	if err := os.RemoveAll(trash); err != nil {
		return fmt.Errorf("delete namespace %s: %w", name, err)
	}
	return nil
}

// closeAll shuts every namespace down, checkpointing its WAL unless the
// backup owns checkpoints.
func (s *nsStore) closeAll(ctx context.Context) error {
	s.warming.Wait()
	s.mu.Lock()
	all := make([]*namespace, 0, len(s.m))
	for _, ns := range s.m {
		all = append(all, ns)
	}
	s.mu.Unlock()
	var errs []error
	for _, ns := range all {
		errs = append(errs, ns.shutdown(ctx, s.backup == nil))
	}
	return errors.Join(errs...)
}

func randomSuffix() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
