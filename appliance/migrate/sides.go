package migrate

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objcentral"
	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
	"github.com/dwk/fleet/appliance/central"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/fleet/lease"
	"github.com/dwk/fleet/appliance/fleet/namespaces"
	"github.com/dwk/fleet/appliance/worker"
)

// LocalObjects are a local data directory's objects (package objlocal)
// and alarm index.
type LocalObjects struct {
	store  *objlocal.Store
	alarms *objlocal.AlarmIndex
}

// OpenLocalObjects opens the objects of the data directory dir, which
// the caller has locked. Close it after the copy.
func OpenLocalObjects(ctx context.Context, dir string) (*LocalObjects, error) {
	idx, err := objlocal.OpenAlarmIndex(ctx, filepath.Join(dir, objlocal.AlarmIndexFile))
	if err != nil {
		return nil, err
	}
	return &LocalObjects{store: objlocal.NewStore(dir), alarms: idx}, nil
}

// List implements Objects.
func (l *LocalObjects) List(context.Context) ([]worker.ObjectID, error) { return l.store.List() }

// Has implements Objects.
func (l *LocalObjects) Has(_ context.Context, id worker.ObjectID) (bool, error) {
	_, err := os.Stat(l.store.Path(id))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// Open implements Objects: a local object needs no lease.
func (l *LocalObjects) Open(ctx context.Context, id worker.ObjectID) (worker.StorageBackend, func(), error) {
	db, err := l.store.Open(ctx, id, nil)
	if err != nil {
		return nil, nil, err
	}
	return db, func() { db.Close() }, nil
}

// SetAlarm implements Objects.
func (l *LocalObjects) SetAlarm(ctx context.Context, id worker.ObjectID, at time.Time) error {
	return l.alarms.Put(ctx, objects.AlarmEntry{Object: id, At: at})
}

// Close closes the alarm index.
func (l *LocalObjects) Close() error { return l.alarms.Close() }

// CentralObjects are a fleet's objects (package objcentral), each opened
// under a lease of its own, and its alarm index.
type CentralObjects struct {
	coord   *coord.Store
	leases  *lease.Manager
	store   *objcentral.Store
	alarms  *objcentral.AlarmIndex
	wait    time.Duration
	release ReleaseFunc
}

// ReleaseFunc asks member holder to hand object id back (its admin API's
// POST /admin/objects/release), so that a copy may take its lease.
type ReleaseFunc func(ctx context.Context, holder string, id worker.ObjectID) error

// CentralObjectsConfig configures OpenCentralObjects.
type CentralObjectsConfig struct {
	// Clients are the fleet's store clients; Coord its coordination store.
	Clients *central.Clients
	Coord   *coord.Store
	// CacheDir holds the local replicas of the objects being copied.
	CacheDir string
	// TTL is the leases' TTL (the fleet's lease.ttl). Default: lease's.
	TTL time.Duration
	// Release, when set, is asked to hand back an object a replica
	// holds; without it the copy waits until the replica lets it go.
	Release ReleaseFunc
	// Logger: default slog.Default().
	Logger *slog.Logger
}

// OpenCentralObjects takes part in the fleet's leases as a member of its
// own ("dwk-migrate-<host>-<pid>"), whose address answers nothing: a
// request for an object being copied is retried by the front door until
// the copy lets go. Close it after the copy.
func OpenCentralObjects(ctx context.Context, c CentralObjectsConfig) (*CentralObjects, error) {
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	host, _ := os.Hostname()
	member := fmt.Sprintf("dwk-migrate-%s-%d", host, os.Getpid())
	leases := lease.New(lease.Config{Coord: c.Coord, Member: member, Addr: "127.0.0.1:1", TTL: c.TTL, Logger: c.Logger})
	if err := leases.Open(ctx); err != nil {
		return nil, err
	}
	store, err := objcentral.NewStore(objcentral.StoreConfig{
		Shards: c.Clients.ObjectShards, NamespacePrefix: namespaces.ObjectPrefix(c.Clients.Fleet), CacheDir: c.CacheDir, Logger: c.Logger,
	})
	if err != nil {
		leases.Close(ctx)
		return nil, err
	}
	alarms, err := objcentral.NewAlarmIndex(objcentral.AlarmConfig{Coord: c.Coord, Claimer: member})
	if err != nil {
		store.Close()
		leases.Close(ctx)
		return nil, err
	}
	wait := 2 * c.TTL
	if wait <= 0 {
		wait = 2 * lease.DefaultTTL
	}
	return &CentralObjects{coord: c.Coord, leases: leases, store: store, alarms: alarms, wait: wait, release: c.Release}, nil
}

// List implements Objects: every object whose lease was ever taken (its
// epoch counter never expires).
func (c *CentralObjects) List(ctx context.Context) ([]worker.ObjectID, error) {
	var out []worker.ObjectID
	cursor := ""
	for {
		page, err := c.coord.List(ctx, coord.Selector{Prefix: tuple.Key{"epoch"}}, coord.ListOptions{Cursor: cursor})
		if err != nil {
			return nil, err
		}
		for _, e := range page.Entries {
			if id, ok := epochObject(e.Key); ok {
				out = append(out, id)
			}
		}
		if page.Cursor == "" {
			return out, nil
		}
		cursor = page.Cursor
	}
}

// epochObject is the object of an epoch counter's key.
func epochObject(k tuple.Key) (worker.ObjectID, bool) {
	if len(k) != 3 {
		return worker.ObjectID{}, false
	}
	class, ok1 := k[1].(string)
	hexID, ok2 := k[2].(string)
	if !ok1 || !ok2 {
		return worker.ObjectID{}, false
	}
	id, err := worker.ParseObjectID(class, hexID)
	return id, err == nil
}

// Has implements Objects: the object's lease was taken once.
func (c *CentralObjects) Has(ctx context.Context, id worker.ObjectID) (bool, error) {
	e, err := c.coord.Get(ctx, lease.EpochKeyFor(id.Namespace(), id.String()))
	return err == nil && e.Value != nil, err
}

// Open implements Objects: it takes the object's lease. While a replica
// holds it, it asks the replica to hand it back (Release) and tries again,
// for up to two lease TTLs.
func (c *CentralObjects) Open(ctx context.Context, id worker.ObjectID) (worker.StorageBackend, func(), error) {
	deadline := time.Now().Add(c.wait)
	asked := ""
	for {
		l, err := c.leases.Acquire(ctx, id.Namespace(), id.String())
		if err == nil {
			db, err := c.store.Open(ctx, id, l)
			if err != nil {
				l.Release(context.Background())
				return nil, nil, err
			}
			return db, func() { db.Close(); l.Release(context.Background()) }, nil
		}
		if !errors.Is(err, lease.ErrHeld) || time.Now().After(deadline) {
			return nil, nil, fmt.Errorf("take the lease of object %s: %w", id, err)
		}
		var held *lease.HeldError
		if errors.As(err, &held) && c.release != nil && held.Record.Holder != asked {
			if err := c.release(ctx, held.Record.Holder, id); err != nil {
				return nil, nil, fmt.Errorf("ask member %s to hand object %s back: %w", held.Record.Holder, id, err)
			}
			asked = held.Record.Holder
			continue
		}
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// SetAlarm implements Objects.
func (c *CentralObjects) SetAlarm(ctx context.Context, id worker.ObjectID, at time.Time) error {
	return c.alarms.Put(ctx, objects.AlarmEntry{Object: id, At: at})
}

// Close lets go of every lease and closes the object cache.
func (c *CentralObjects) Close() error {
	return errors.Join(c.store.Close(), c.leases.Close(context.Background()))
}
