package membership

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
)

// Recorder writes one replica's record. Heartbeat uses it; Registry
// implements it.
type Recorder interface {
	// Put writes m, which must be valid, to expire ttl after the write by
	// the store's clock. A nil error means the record is stored.
	Put(ctx context.Context, m Member, ttl time.Duration) error
	// Remove deletes member id's record; a missing record is not an
	// error.
	Remove(ctx context.Context, id string) error
}

// Lister reads every live record. View uses it; Registry implements it.
type Lister interface {
	// List returns the live (unexpired) records in id order. Records that
	// cannot be decoded are left out, not reported as an error.
	List(ctx context.Context) ([]Member, error)
}

// Registry keeps member records in a coordination store under
// ("member", id). It is safe for concurrent use and owns no goroutines.
type Registry struct {
	store *coord.Store
	log   *slog.Logger
}

var (
	_ Recorder = (*Registry)(nil)
	_ Lister   = (*Registry)(nil)
)

// NewRegistry returns a registry over store. log receives the ids of
// records that cannot be decoded; nil means slog.Default().
func NewRegistry(store *coord.Store, log *slog.Logger) *Registry {
	if log == nil {
		log = slog.Default()
	}
	return &Registry{store: store, log: log}
}

// Put writes m with a TTL, in one round trip.
func (r *Registry) Put(ctx context.Context, m Member, ttl time.Duration) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if ttl <= 0 {
		return fmt.Errorf("put member %q: ttl %s: %w", m.ID, ttl, ErrOptions)
	}
	b, err := m.encode()
	if err != nil {
		return err
	}
	if _, err := r.store.Atomic().Set(Key(m.ID), b, ttl).Commit(ctx); err != nil {
		return fmt.Errorf("put member %q: %w", m.ID, err)
	}
	return nil
}

// Remove deletes member id's record, in one round trip.
func (r *Registry) Remove(ctx context.Context, id string) error {
	if _, err := r.store.Atomic().Delete(Key(id)).Commit(ctx); err != nil {
		return fmt.Errorf("remove member %q: %w", id, err)
	}
	return nil
}

// Get returns member id's live record; ok is false when there is none. A
// record that cannot be decoded is an error wrapping ErrCorrupt.
func (r *Registry) Get(ctx context.Context, id string) (m Member, ok bool, err error) {
	e, err := r.store.Get(ctx, Key(id))
	if err != nil {
		return Member{}, false, fmt.Errorf("get member %q: %w", id, err)
	}
	if !e.Exists() {
		return Member{}, false, nil
	}
	if m, err = decode(e.Value); err != nil {
		return Member{}, false, fmt.Errorf("get member %q: %w", id, err)
	}
	m.Expires = e.Expires
	return m, true, nil
}

// Answers reports whether member id has a live record that is not marked
// deposed (in any state: a draining member still answers the requests it
// took), in one round trip.
func (r *Registry) Answers(ctx context.Context, id string) (bool, error) {
	m, ok, err := r.Get(ctx, id)
	return ok && !m.Deposed, err
}

// List returns every live record in id order: one round trip per 1000
// members. Records that cannot be decoded are logged and left out.
func (r *Registry) List(ctx context.Context) ([]Member, error) {
	var out []Member
	cursor := ""
	for {
		page, err := r.store.List(ctx, coord.Selector{Prefix: prefix},
			coord.ListOptions{Limit: coord.MaxListLimit, Cursor: cursor})
		if err != nil {
			return nil, fmt.Errorf("list members: %w", err)
		}
		for _, e := range page.Entries {
			m, err := decode(e.Value)
			if err != nil {
				r.log.Warn("skipping unreadable member record", "key", fmt.Sprint(e.Key), "err", err)
				continue
			}
			if len(e.Key) == 2 && e.Key[1] != m.ID {
				r.log.Warn("skipping member record stored under another id", "key", fmt.Sprint(e.Key), "id", m.ID)
				continue
			}
			m.Expires = e.Expires
			out = append(out, m)
		}
		if page.Cursor == "" {
			return out, nil
		}
		cursor = page.Cursor
	}
}
