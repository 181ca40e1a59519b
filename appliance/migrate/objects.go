package migrate

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/dwk/fleet/appliance/bindings/d1"
	"github.com/dwk/fleet/appliance/bindings/d1/d1migrations"
	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/worker"
)

// Objects is one side's Durable Object storage.
type Objects interface {
	// List returns the objects the side holds storage for (their names
	// may be empty).
	List(ctx context.Context) ([]worker.ObjectID, error)
	// Has reports whether the side holds storage for id, without
	// creating it.
	Has(ctx context.Context, id worker.ObjectID) (bool, error)
	// Open opens id's storage for the copy, taking what the side needs to
	// write it alone (a lease); done closes it and lets go.
	Open(ctx context.Context, id worker.ObjectID) (db worker.StorageBackend, done func(), err error)
	// SetAlarm records id's alarm at in the side's alarm index.
	SetAlarm(ctx context.Context, id worker.ObjectID, at time.Time) error
}

// objectsKind copies the Durable Objects of one class, each as one
// entry keyed by its id: its storage's dump (its tables, its KV storage
// and its alarm), run on the destination in one transaction, and its
// alarm in the destination's alarm index, set first, so that an
// interrupted copy leaves at most an index entry the runtime discards.
type objectsKind struct {
	class    string
	src, dst Objects
	// ids are the source's objects of the class, by key.
	ids map[string]worker.ObjectID
}

func (k *objectsKind) entries(ctx context.Context, from bool) (map[string]entry, error) {
	if from {
		all, err := k.src.List(ctx)
		if err != nil {
			return nil, fmt.Errorf("list objects: %w", err)
		}
		k.ids = map[string]worker.ObjectID{}
		for _, id := range all {
			if id.Namespace() == k.class {
				k.ids[id.String()] = id
			}
		}
	}
	side := k.dst
	if from {
		side = k.src
	}
	out := map[string]entry{}
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(digestParallel)
	for key, id := range k.ids {
		g.Go(func() error {
			if !from {
				has, err := side.Has(gctx, id)
				if err != nil || !has {
					return err
				}
			}
			dump, _, err := dumpObject(gctx, side, id)
			if err != nil {
				return fmt.Errorf("object %s: %w", key, err)
			}
			if dump == nil {
				return nil // no storage
			}
			sum := sha256.Sum256(dump)
			mu.Lock()
			out[key] = entry{digest: hex.EncodeToString(sum[:]), size: int64(len(dump))}
			mu.Unlock()
			return nil
		})
	}
	return out, g.Wait()
}

// digestParallel is how many objects' storage is read at once.
const digestParallel = 8

// dumpObject is id's storage as SQL, nil when it holds nothing, and its
// alarm (zero when none is set), read in one opening.
func dumpObject(ctx context.Context, side Objects, id worker.ObjectID) ([]byte, time.Time, error) {
	db, done, err := side.Open(ctx, id)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer done()
	var b bytes.Buffer
	if err := d1.Dump(ctx, db, &b, d1.DumpOptions{Reserved: true}); err != nil {
		return nil, time.Time{}, err
	}
	if !strings.Contains(b.String(), "\nCREATE ") {
		return nil, time.Time{}, nil
	}
	var alarm time.Time
	res, err := db.Batch(ctx, []worker.D1Query{{SQL: objects.AlarmSelect}})
	switch {
	case err == nil && len(res) == 1 && len(res[0].Rows) == 1:
		if ms, ok := res[0].Rows[0][0].(int64); ok {
			alarm = time.UnixMilli(ms)
		}
	case err != nil && !strings.Contains(err.Error(), "no such table"):
		return nil, time.Time{}, fmt.Errorf("read its alarm: %w", err)
	}
	return b.Bytes(), alarm, nil
}

func (k *objectsKind) copy(ctx context.Context, key string, replace bool) error {
	id := k.ids[key]
	dump, alarm, err := dumpObject(ctx, k.src, id)
	if err != nil {
		return err
	}
	stmts, err := d1migrations.Statements(string(dump))
	if err != nil {
		return err
	}
	if !alarm.IsZero() {
		if err := k.dst.SetAlarm(ctx, id, alarm); err != nil {
			return fmt.Errorf("set its alarm: %w", err)
		}
	}
	dst, done, err := k.dst.Open(ctx, id)
	if err != nil {
		return err
	}
	defer done()
	if replace {
		if err := dst.DeleteAll(ctx); err != nil {
			return fmt.Errorf("clear the destination: %w", err)
		}
	}
	return dst.Transaction(ctx, func(tx worker.SQLExecer) error {
		for _, s := range stmts {
			if _, err := tx.Exec(ctx, worker.D1Query{SQL: s}); err != nil {
				return fmt.Errorf("%s: %w", d1.ShortSQL(s, 60), err)
			}
		}
		return nil
	})
}

// errNoObjects: a side without object storage was given a class.
var errNoObjects = errors.New("this side has no Durable Object storage")

// errNoQueues: a side without a queue broker was given a queue.
var errNoQueues = errors.New("this side has no queue broker")
