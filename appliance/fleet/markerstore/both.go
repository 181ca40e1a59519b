package markerstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/marker"
)

// Write writes m into both stores: the bucket's object first, then the
// coordination store. Both copies then carry m.ID, which is what replicas
// compare. st must be open on the fleet's coordination database
// (namespaces.Coord(m.Fleet)); the bucket must exist.
func Write(ctx context.Context, st *coord.Store, c S3API, bucket string, m marker.Marker) error {
	if err := validate(m); err != nil {
		return err
	}
	if err := WriteBucket(ctx, c, bucket, m); err != nil {
		return fmt.Errorf("write mode marker of fleet %q: %w", m.Fleet, err)
	}
	if err := WriteCoord(ctx, st, m); err != nil {
		return fmt.Errorf("write mode marker of fleet %q: bucket copy written, coordination copy not: %w", m.Fleet, err)
	}
	return nil
}

// Delete removes the marker from both stores, the coordination store
// first (replicas then refuse to start at once). Missing copies, and a
// missing bucket, are not errors.
func Delete(ctx context.Context, st *coord.Store, c S3API, bucket string) error {
	if err := DeleteCoord(ctx, st); err != nil {
		return fmt.Errorf("delete mode marker: %w", err)
	}
	if err := DeleteBucket(ctx, c, bucket); err != nil {
		return fmt.Errorf("delete mode marker: coordination copy deleted, bucket copy not: %w", err)
	}
	return nil
}

// CopyStatus says what one store holds.
type CopyStatus int

// Copy statuses.
const (
	// Missing: the store holds no marker.
	Missing CopyStatus = iota
	// Present: the store holds a readable marker.
	Present
	// Corrupt: the store holds something that is not a marker.
	Corrupt
	// NoBucket: the bucket itself does not exist (bucket copy only).
	NoBucket
)

// String names the status for plans and logs.
func (s CopyStatus) String() string {
	switch s {
	case Missing:
		return "missing"
	case Present:
		return "present"
	case Corrupt:
		return "corrupt"
	case NoBucket:
		return "no bucket"
	}
	return "invalid"
}

// Copy is one store's copy of the marker.
type Copy struct {
	Status CopyStatus
	// Marker is the copy when Status is Present.
	Marker marker.Marker
	// Problem describes a Corrupt copy.
	Problem error
}

// Copies are what both stores hold.
type Copies struct {
	Coord, Bucket Copy
}

// InSync reports whether both copies are present and identical, as one
// Write leaves them. Anything else is drift that the next Write repairs.
func (c Copies) InSync() bool {
	return c.Coord.Status == Present && c.Bucket.Status == Present &&
		marker.Same(c.Coord.Marker, c.Bucket.Marker) == nil && c.Coord.Marker.Mode == c.Bucket.Marker.Mode &&
		c.Coord.Marker.Schema == c.Bucket.Marker.Schema
}

// Read reads both copies (two requests). Missing and corrupt copies are
// reported in Copies, not as errors; the error is for stores that could
// not be read (unreachable, access denied).
func Read(ctx context.Context, st *coord.Store, c S3API, bucket string) (Copies, error) {
	var out Copies
	var err error
	if out.Coord, err = CopyOf(ReadCoord(ctx, st)); err != nil {
		return Copies{}, err
	}
	if out.Bucket, err = CopyOf(ReadBucket(ctx, c, bucket)); err != nil {
		return Copies{}, err
	}
	return out, nil
}

// CopyOf classifies the result of one ReadCoord or ReadBucket as Read
// does: a missing, absent-bucket or corrupt marker is a Copy with that
// status and a nil error; any other error (the store could not be read)
// is returned as is.
func CopyOf(m marker.Marker, err error) (Copy, error) {
	switch {
	case err == nil:
		return Copy{Status: Present, Marker: m}, nil
	case errors.Is(err, marker.ErrMissing):
		return Copy{Status: Missing}, nil
	case errors.Is(err, ErrNoBucket):
		return Copy{Status: NoBucket}, nil
	case errors.Is(err, marker.ErrCorrupt):
		return Copy{Status: Corrupt, Problem: err}, nil
	}
	return Copy{}, err
}
