package markerstore

import (
	"errors"
	"fmt"
	"testing"

	"github.com/dwk/fleet/appliance/fleet/marker"
)

func TestCopyOf(t *testing.T) {
	m := marker.New("prod", 1, "test")
	down := errors.New("connection refused")
	corrupt := fmt.Errorf("read: %w", marker.ErrCorrupt)
	tests := []struct {
		name       string
		err        error
		wantStatus CopyStatus
		wantErr    error
	}{
		{"present", nil, Present, nil},
		{"missing", fmt.Errorf("read: %w", marker.ErrMissing), Missing, nil},
		{"no bucket", fmt.Errorf("read: %w", ErrNoBucket), NoBucket, nil},
		{"corrupt", corrupt, Corrupt, nil},
		{"unreachable", down, Missing, down},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CopyOf(m, tt.err)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if got.Status != tt.wantStatus {
				t.Errorf("status = %s, want %s", got.Status, tt.wantStatus)
			}
			if (got.Status == Present) != (got.Marker.ID == m.ID) {
				t.Errorf("marker = %+v: want the marker exactly when present", got.Marker)
			}
			if (got.Status == Corrupt) != (got.Problem != nil) {
				t.Errorf("problem = %v: want one exactly when corrupt", got.Problem)
			}
		})
	}
}
