package objcentral

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// DefaultCacheBytes is the default budget of a Store's local replicas of
// objects this replica does not hold: past it, the least recently used
// copies are deleted. Held objects are never evicted.
const DefaultCacheBytes = 1 << 30

// copyMeta describes a local replica file that was closed cleanly: the
// primary's generation and version it holds, byte for byte. A replica file
// without its meta file (never closed cleanly: a crash, a failed commit)
// is not trusted and is rebuilt from the primary.
//
// Closing a copy writes its meta without fsync: within one process the
// page cache keeps file and meta consistent. Across processes, the copies
// are trusted only if the previous process shut down cleanly: it synced
// the file system and then wrote the marker cleanFile, which the next
// process removes (durably) before it uses any copy. After a crash or a
// power loss every copy is rebuilt from the primary.
type copyMeta struct {
	Gen      string `json:"gen"`
	Version  int64  `json:"version"`
	PageSize int    `json:"page_size"`
	// Packed: the object's rows are in a pack, not in a database of its
	// own (layouts.go). Metas written before packs existed lack it.
	Packed bool `json:"packed,omitempty"`
}

// cache is the directory of local replicas, with its size budget. One
// replica file per object database name: <name>.db, its WAL and shared
// memory files, and <name>.meta once closed cleanly.
type cache struct {
	dir      string // empty until first use when a temporary dir is used
	maxBytes int64
	temp     bool

	mu      sync.Mutex
	entries map[string]*cacheEntry
	ready   bool
	closers sync.WaitGroup // background closes
}

type cacheEntry struct {
	size     int64
	lastUsed time.Time
	inUse    bool
	closing  chan struct{} // closed when a background close finished
}

// closeWait bounds how long an open waits for the background close of the
// same object's copy.
const closeWait = 30 * time.Second

func newCache(dir string, maxBytes int64) *cache {
	if maxBytes <= 0 {
		maxBytes = DefaultCacheBytes
	}
	return &cache{dir: dir, maxBytes: maxBytes, temp: dir == "", entries: map[string]*cacheEntry{}}
}

// init creates the directory and indexes what an earlier run left there.
// Called with c.mu held.
func (c *cache) initLocked() error {
	if c.ready {
		return nil
	}
	if c.temp {
		dir, err := os.MkdirTemp("", "dwk-objects-")
		if err != nil {
			return fmt.Errorf("object cache: %w", err)
		}
		c.dir = dir
	} else if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return fmt.Errorf("object cache: %w", err)
	}
	clean := filepath.Join(c.dir, cleanFile)
	_, err := os.Stat(clean)
	trusted := err == nil
	if trusted {
		if err := os.Remove(clean); err != nil {
			return fmt.Errorf("object cache: %w", err)
		}
		if err := syncDir(c.dir); err != nil {
			return fmt.Errorf("object cache: %w", err)
		}
	}
	// Empty copies were once made ahead of time in spareDir.
	if err := os.RemoveAll(filepath.Join(c.dir, spareDir)); err != nil {
		return fmt.Errorf("object cache: %w", err)
	}
	des, err := os.ReadDir(c.dir)
	if err != nil {
		return fmt.Errorf("object cache: %w", err)
	}
	for _, de := range des {
		if !trusted && strings.HasSuffix(de.Name(), ".meta") {
			os.Remove(filepath.Join(c.dir, de.Name()))
		}
		name, ok := strings.CutSuffix(de.Name(), ".db")
		if !ok {
			continue
		}
		info, err := de.Info()
		if err != nil {
			continue
		}
		c.entries[name] = &cacheEntry{size: info.Size(), lastUsed: info.ModTime()}
	}
	c.ready = true
	return nil
}

// spareDir is a subdirectory the cache removes.
const spareDir = "spare"

// path is the replica file of database name.
func (c *cache) path(name string) string { return filepath.Join(c.dir, name+".db") }

func (c *cache) metaPath(name string) string { return filepath.Join(c.dir, name+".meta") }

// acquire marks name in use and returns its replica file and the meta of
// its last clean close (nil when there is none, or the copy is not to be
// trusted). The meta file is removed before acquire returns, so a copy
// left in use by a crash is not trusted.
func (c *cache) acquire(name string) (string, *copyMeta, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.initLocked(); err != nil {
		return "", nil, err
	}
	e := c.entries[name]
	if e == nil {
		e = &cacheEntry{}
		c.entries[name] = e
	}
	if ch := e.closing; ch != nil {
		c.mu.Unlock()
		select {
		case <-ch:
		case <-time.After(closeWait):
		}
		c.mu.Lock()
		if e = c.entries[name]; e == nil {
			e = &cacheEntry{}
			c.entries[name] = e
		}
	}
	if e.inUse {
		return "", nil, fmt.Errorf("object cache: %s is already open", name)
	}
	e.inUse = true
	path := c.path(name)
	meta := c.readMeta(name)
	if meta == nil {
		if err := objlocal.RemoveFiles(path); err != nil {
			e.inUse = false
			return "", nil, fmt.Errorf("object cache: %w", err)
		}
		return path, nil, nil
	}
	if err := os.Remove(c.metaPath(name)); err != nil {
		e.inUse = false
		return "", nil, fmt.Errorf("object cache: %w", err)
	}
	return path, meta, nil
}

func (c *cache) readMeta(name string) *copyMeta {
	b, err := os.ReadFile(c.metaPath(name))
	if err != nil {
		return nil
	}
	var m copyMeta
	if json.Unmarshal(b, &m) != nil || m.Gen == "" {
		return nil
	}
	if _, err := os.Stat(c.path(name)); err != nil && m.Version > 0 {
		return nil
	}
	return &m
}

// closeInBackground runs finish, which closes the copy of name and says
// whether to keep it (see release), on a goroutine of its own; acquire of
// the same name and close wait for it.
func (c *cache) closeInBackground(name string, finish func() *copyMeta) {
	done := make(chan struct{})
	c.mu.Lock()
	if e := c.entries[name]; e != nil {
		e.closing = done
	}
	c.closers.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.closers.Done()
		defer close(done)
		meta := finish()
		c.release(name, meta)
		c.mu.Lock()
		if e := c.entries[name]; e != nil && e.closing == done {
			e.closing = nil
		}
		c.mu.Unlock()
	}()
}

// release ends the use of name. With meta, the copy was closed cleanly
// and is kept (durably) for the next holder on this replica; without, it
// is deleted. Then copies of objects not in use are evicted, least
// recently used first, until the cache fits its budget.
func (c *cache) release(name string, meta *copyMeta) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[name]
	if e == nil {
		return nil
	}
	e.inUse = false
	e.lastUsed = time.Now()
	path := c.path(name)
	var err error
	if meta != nil {
		err = writeMeta(c.metaPath(name), meta)
	}
	if meta == nil || err != nil {
		delete(c.entries, name)
		os.Remove(c.metaPath(name))
		if rerr := objlocal.RemoveFiles(path); err == nil {
			err = rerr
		}
	} else if info, serr := os.Stat(path); serr == nil {
		e.size = info.Size()
	} else {
		e.size = 0
	}
	c.evictLocked()
	return err
}

// evictLocked deletes unused copies, oldest first, while over budget.
func (c *cache) evictLocked() {
	var total int64
	var idle []string
	for name, e := range c.entries {
		total += e.size
		if !e.inUse {
			idle = append(idle, name)
		}
	}
	sort.Slice(idle, func(i, j int) bool { return c.entries[idle[i]].lastUsed.Before(c.entries[idle[j]].lastUsed) })
	for _, name := range idle {
		if total <= c.maxBytes {
			return
		}
		total -= c.entries[name].size
		delete(c.entries, name)
		os.Remove(c.metaPath(name))
		objlocal.RemoveFiles(c.path(name))
	}
}

// bytes is the size of every copy the cache holds.
func (c *cache) bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	var total int64
	for _, e := range c.entries {
		total += e.size
	}
	return total
}

// cleanFile marks a cache whose copies and meta files are all on disk.
const cleanFile = "clean"

// close ends the cache at shutdown: a temporary directory is removed; a
// kept one is synced to disk and marked clean, so the next process trusts
// the copies closed cleanly (see copyMeta).
func (c *cache) close() error {
	c.closers.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dir == "" || !c.ready {
		return nil
	}
	if c.temp {
		return os.RemoveAll(c.dir)
	}
	for name, e := range c.entries {
		if e.inUse {
			return nil // a copy still open cannot be vouched for
		}
		if err := syncFile(c.path(name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("object cache: %w", err)
		}
		if err := syncFile(c.metaPath(name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("object cache: %w", err)
		}
	}
	if err := syncDir(c.dir); err != nil {
		return fmt.Errorf("object cache: %w", err)
	}
	clean := filepath.Join(c.dir, cleanFile)
	if err := os.WriteFile(clean, nil, 0o600); err != nil {
		return fmt.Errorf("object cache: %w", err)
	}
	if err := syncFile(clean); err != nil {
		return fmt.Errorf("object cache: %w", err)
	}
	return syncDir(c.dir)
}

// writeMeta writes the meta of the replica file (atomically, not durably:
// see copyMeta).
func writeMeta(metaPath string, m *copyMeta) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	tmp := metaPath + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, metaPath)
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
