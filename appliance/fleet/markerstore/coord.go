package markerstore

import (
	"context"
	"fmt"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/fleet/marker"
)

// Key is the coordination key of the marker: ("mode").
func Key() tuple.Key { return tuple.Key{"mode"} }

// ReadCoord returns the marker in the coordination store, in one round
// trip: an error wrapping marker.ErrMissing when there is none, or
// marker.ErrCorrupt when it cannot be decoded.
func ReadCoord(ctx context.Context, st *coord.Store) (marker.Marker, error) {
	e, err := st.Get(ctx, Key())
	if err != nil {
		return marker.Marker{}, fmt.Errorf("read mode marker from the coordination store: %w", err)
	}
	if !e.Exists() {
		return marker.Marker{}, fmt.Errorf("read mode marker from the coordination store: %w", marker.ErrMissing)
	}
	m, err := marker.Decode(e.Value)
	if err != nil {
		return marker.Marker{}, fmt.Errorf("read mode marker from the coordination store: %w", err)
	}
	return m, nil
}

// WriteCoord writes m into the coordination store, replacing any marker
// there, in one round trip.
func WriteCoord(ctx context.Context, st *coord.Store, m marker.Marker) error {
	if err := validate(m); err != nil {
		return err
	}
	if _, err := st.Atomic().Set(Key(), m.Encode(), 0).Commit(ctx); err != nil {
		return fmt.Errorf("write mode marker to the coordination store: %w", err)
	}
	return nil
}

// DeleteCoord removes the marker from the coordination store; a missing
// marker is not an error.
func DeleteCoord(ctx context.Context, st *coord.Store) error {
	if _, err := st.Atomic().Delete(Key()).Commit(ctx); err != nil {
		return fmt.Errorf("delete mode marker from the coordination store: %w", err)
	}
	return nil
}

func validate(m marker.Marker) error {
	if m.Fleet == "" || m.ID == "" || m.Mode != marker.Mode {
		return fmt.Errorf("%w: fleet %q, id %q, mode %q (want %q)", ErrInvalidMarker, m.Fleet, m.ID, m.Mode, marker.Mode)
	}
	return nil
}
