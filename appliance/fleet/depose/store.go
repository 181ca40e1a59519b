package depose

import (
	"context"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
)

// Store keeps the reports.
type Store interface {
	// Report writes one report by reporter on each suspect's current run,
	// each expiring ttl after the write (by the store's clock), in one
	// round trip.
	Report(ctx context.Context, reporter string, suspects []Peer, ttl time.Duration) error
	// Reports returns every report that has not expired.
	Reports(ctx context.Context) ([]Report, error)
}

// prefix is where reports live in the coordination KV:
// ("depose", suspect, run, reporter).
var prefix = tuple.Key{"depose"}

// reportValue is every report's value: the key says it all, but an empty
// value reads back as SQL NULL, which List refuses.
var reportValue = []byte{1}

// CoordStore keeps reports in the coordination KV.
type CoordStore struct{ s *coord.Store }

var _ Store = CoordStore{}

// NewCoordStore returns a Store over s.
func NewCoordStore(s *coord.Store) CoordStore { return CoordStore{s: s} }

// Report implements Store.
func (c CoordStore) Report(ctx context.Context, reporter string, suspects []Peer, ttl time.Duration) error {
	op := c.s.Atomic()
	for _, s := range suspects {
		op.Set(tuple.Key{"depose", s.ID, s.Run, reporter}, reportValue, ttl)
	}
	if _, err := op.Commit(ctx); err != nil {
		return fmt.Errorf("report %d unreachable members: %w", len(suspects), err)
	}
	return nil
}

// Reports implements Store: one round trip per 1000 reports.
func (c CoordStore) Reports(ctx context.Context) ([]Report, error) {
	var out []Report
	cursor := ""
	for {
		page, err := c.s.List(ctx, coord.Selector{Prefix: prefix}, coord.ListOptions{Limit: coord.MaxListLimit, Cursor: cursor, MaxValueBytes: 1})
		if err != nil {
			return nil, fmt.Errorf("list depose reports: %w", err)
		}
		for _, e := range page.Entries {
			if len(e.Key) != 4 {
				continue
			}
			s, ok1 := e.Key[1].(string)
			run, ok2 := e.Key[2].(int64)
			r, ok3 := e.Key[3].(string)
			if ok1 && ok2 && ok3 {
				out = append(out, Report{Suspect: s, Reporter: r, Run: run})
			}
		}
		if page.Cursor == "" {
			return out, nil
		}
		cursor = page.Cursor
	}
}
