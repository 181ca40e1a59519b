package workersecrets

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/worker"
)

// prefix is the first part of every key of this package.
const prefix = "secret"

// genKey is the counter every put and delete sums.
var genKey = tuple.Key{prefix}

func secretKey(workerName, name string) tuple.Key { return tuple.Key{prefix, workerName, name} }

// ErrNotStored is returned by Delete for a secret no put stored.
var ErrNotStored = errors.New("no such stored secret")

// Store reads and writes a fleet's stored secrets. It is safe for
// concurrent use.
type Store struct {
	coord *coord.Store
	seal  *sealer
}

// New returns the store of fleet's secrets in st, sealed with a key
// derived from secret (fleet.secret). It does no I/O.
func New(st *coord.Store, secret []byte, fleet string) (*Store, error) {
	if st == nil {
		return nil, errors.New("workersecrets: nil coordination store")
	}
	s, err := newSealer(secret, fleet)
	if err != nil {
		return nil, err
	}
	return &Store{coord: st, seal: s}, nil
}

// Put stores value as the secret name of workerName, replacing any value
// it had, in one round trip.
func (s *Store) Put(ctx context.Context, workerName, name string, value worker.Secret) error {
	if err := checkRef(workerName, name); err != nil {
		return err
	}
	v := []byte(value.Reveal())
	if err := validValue(v); err != nil {
		return err
	}
	sealed := s.seal.seal(workerName, name, v)
	res, err := s.coord.Atomic().Set(secretKey(workerName, name), sealed, 0).Sum(genKey, 1).Commit(ctx)
	if err != nil {
		return fmt.Errorf("store secret %s of worker %s: %w", name, workerName, err)
	}
	if !res.OK {
		return fmt.Errorf("store secret %s of worker %s: the commit was refused", name, workerName)
	}
	return nil
}

// Delete removes the stored secret name of workerName. It fails with
// ErrNotStored when there is none.
func (s *Store) Delete(ctx context.Context, workerName, name string) error {
	if err := checkRef(workerName, name); err != nil {
		return err
	}
	key := secretKey(workerName, name)
	for range deleteAttempts {
		e, err := s.coord.Get(ctx, key)
		if err != nil {
			return fmt.Errorf("read secret %s of worker %s: %w", name, workerName, err)
		}
		if !e.Exists() {
			return fmt.Errorf("secret %s of worker %s: %w", name, workerName, ErrNotStored)
		}
		res, err := s.coord.Atomic().Check(key, e.Versionstamp).Delete(key).Sum(genKey, 1).Commit(ctx)
		if err != nil {
			return fmt.Errorf("delete secret %s of worker %s: %w", name, workerName, err)
		}
		if res.OK {
			return nil
		}
		// Put again in between: delete what is there now.
	}
	return fmt.Errorf("delete secret %s of worker %s: it was put again %d times while deleting; run the delete again", name, workerName, deleteAttempts)
}

// deleteAttempts bounds a Delete that races puts of the same secret.
const deleteAttempts = 5

// Names returns the names of workerName's stored secrets, sorted. Values
// are not read.
func (s *Store) Names(ctx context.Context, workerName string) ([]string, error) {
	var names []string
	err := s.list(ctx, tuple.Key{prefix, workerName}, 1, func(_, name string, _ []byte) {
		names = append(names, name)
	})
	if err != nil {
		return nil, fmt.Errorf("list the secrets of worker %s: %w", workerName, err)
	}
	sort.Strings(names)
	return names, nil
}

// Snapshot is every stored secret of a fleet at one moment.
type Snapshot struct {
	// Generation is the versionstamp of the counter every put and delete
	// sums; zero when nothing was ever put.
	Generation coord.Versionstamp
	// Workers maps worker name → secret name → value, for the values
	// that opened.
	Workers map[string]map[string]worker.Secret
	// Unreadable are the stored secrets that did not open.
	Unreadable []Unreadable
}

// Unreadable names a stored secret that did not open, and why.
type Unreadable struct {
	Worker, Name string
	Err          error
}

// Load reads every stored secret: the counter first, then the secrets, so
// the snapshot holds at least what the counter's versionstamp stands for.
func (s *Store) Load(ctx context.Context) (Snapshot, error) {
	gen, err := s.generation(ctx)
	if err != nil {
		return Snapshot{}, err
	}
	snap := Snapshot{Generation: gen, Workers: map[string]map[string]worker.Secret{}}
	err = s.list(ctx, tuple.Key{prefix}, 0, func(w, name string, sealed []byte) {
		v, err := s.seal.open(w, name, sealed)
		if err != nil {
			snap.Unreadable = append(snap.Unreadable, Unreadable{Worker: w, Name: name, Err: err})
			return
		}
		if snap.Workers[w] == nil {
			snap.Workers[w] = map[string]worker.Secret{}
		}
		snap.Workers[w][name] = worker.Secret(v)
	})
	if err != nil {
		return Snapshot{}, fmt.Errorf("read the stored secrets: %w", err)
	}
	return snap, nil
}

// generation reads the counter's versionstamp.
func (s *Store) generation(ctx context.Context) (coord.Versionstamp, error) {
	e, err := s.coord.Get(ctx, genKey)
	if err != nil {
		return 0, fmt.Errorf("read the secrets' generation: %w", err)
	}
	return e.Versionstamp, nil
}

// list calls fn with every secret key under p and its value (its first
// maxValue bytes when positive), page by page.
func (s *Store) list(ctx context.Context, p tuple.Key, maxValue int, fn func(workerName, name string, value []byte)) error {
	cursor := ""
	for {
		page, err := s.coord.List(ctx, coord.Selector{Prefix: p}, coord.ListOptions{Limit: coord.MaxListLimit, Cursor: cursor, MaxValueBytes: maxValue})
		if err != nil {
			return err
		}
		for _, e := range page.Entries {
			if len(e.Key) != 3 {
				continue
			}
			w, ok1 := e.Key[1].(string)
			name, ok2 := e.Key[2].(string)
			if ok1 && ok2 {
				fn(w, name, e.Value)
			}
		}
		if page.Cursor == "" {
			return nil
		}
		cursor = page.Cursor
	}
}

// checkRef checks a worker and secret name.
func checkRef(workerName, name string) error {
	if workerName == "" {
		return fmt.Errorf("%w: the worker name is empty", ErrInvalid)
	}
	return ValidName(name)
}
