package libsql

import (
	"context"
	"errors"
	"fmt"

	"github.com/dwk/fleet/appliance/libsql/backup"
)

// backupHooks is what namespaces tell the continuous backup.
type backupHooks interface {
	// Changed: a transaction committed, or the namespace was created.
	Changed(name string)
	// ConfigChanged: the namespace's configuration changed.
	ConfigChanged(name string)
	// Deleted: the namespace was deleted (its files are about to go).
	Deleted(name string)
}

var _ backupHooks = (*backup.Replicator)(nil)

// backupSource gives the backup the namespaces and their write locks.
type backupSource struct{ nss *nsStore }

var _ backup.Source = backupSource{}

func (b backupSource) Names() []string { return b.nss.list() }

func (b backupSource) Dir(name string) (string, error) {
	ns, err := b.nss.get(name)
	if err != nil {
		return "", fmt.Errorf("%w: %v", backup.ErrGone, err)
	}
	return ns.dir, nil
}

// Locked takes the namespace's write gate (so autocommit writes queue in
// Go meanwhile) and SQLite's write lock with BEGIN IMMEDIATE, which waits
// up to the busy timeout for a transaction that holds it.
func (b backupSource) Locked(ctx context.Context, name string, fn func(backup.Checkpointer) error) error {
	ns, err := b.nss.get(name)
	if err != nil {
		return fmt.Errorf("%w: %v", backup.ErrGone, err)
	}
	select {
	case ns.writeGate <- struct{}{}:
		defer func() { <-ns.writeGate }()
	case <-ctx.Done():
		return ctx.Err()
	}
	c, err := ns.pool.get()
	if errors.Is(err, errPoolClosed) {
		return fmt.Errorf("%w: %s", backup.ErrGone, name)
	}
	if err != nil {
		return fmt.Errorf("namespace %s: %w", name, err)
	}
	if err := c.Exec("BEGIN IMMEDIATE"); err != nil {
		ns.pool.put(c, true)
		return fmt.Errorf("namespace %s: lock for backup: %w", name, err)
	}
	ferr := fn(nsCheckpointer{ns})
	rerr := c.Exec("ROLLBACK")
	ns.pool.put(c, rerr == nil)
	if ferr != nil {
		return ferr
	}
	return rerr
}

// nsCheckpointer checkpoints on a second connection while Locked holds
// the first.
type nsCheckpointer struct{ ns *namespace }

func (n nsCheckpointer) Checkpoint() (bool, error) {
	c, err := n.ns.pool.get()
	if err != nil {
		return false, err
	}
	res, err := c.QueryInt64s("PRAGMA wal_checkpoint(PASSIVE)")
	n.ns.pool.put(c, err == nil)
	if err != nil {
		return false, err
	}
	if len(res) != 3 {
		return false, fmt.Errorf("wal_checkpoint returned %v", res)
	}
	return res[0] == 0 && res[1] == res[2], nil
}
