// Package marker is the mode marker: the record in the central stores that
// says "this data belongs to fleet X in central mode, schema N". Terraform
// (dwk_mode_marker) writes it, through this package, into the coordination
// database and the bucket; every central-mode replica checks both copies
// before it serves. One package, so writer and reader never disagree.
package marker

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Mode is the only mode a marker in the central stores may name.
const Mode = "central"

// BucketKey is where the marker object lives in the fleet's S3 bucket,
// outside the r2/ prefix that holds R2 buckets.
const BucketKey = "dwk/marker.json"

// Marker is the record. Both copies of one provisioning carry the same ID.
type Marker struct {
	Fleet   string    `json:"fleet"`
	Mode    string    `json:"mode"`
	Schema  int       `json:"schema"`
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
	// CreatedBy names the tool that wrote it, e.g. "terraform-provider-dwk v1.0.0".
	CreatedBy string `json:"created_by,omitempty"`
}

// New returns a marker for fleet at schema with a fresh random ID.
func New(fleet string, schema int, createdBy string) Marker {
	b := make([]byte, 16)
	rand.Read(b)
	return Marker{Fleet: fleet, Mode: Mode, Schema: schema, ID: hex.EncodeToString(b), Created: time.Now().UTC().Truncate(time.Second), CreatedBy: createdBy}
}

// Encode is the stored form.
func (m Marker) Encode() []byte {
	b, _ := json.Marshal(m)
	return b
}

// Decode parses a stored marker.
func Decode(b []byte) (Marker, error) {
	var m Marker
	if err := json.Unmarshal(b, &m); err != nil {
		return Marker{}, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if m.Fleet == "" || m.Mode == "" || m.ID == "" {
		return Marker{}, fmt.Errorf("%w: fleet, mode and id are required", ErrCorrupt)
	}
	return m, nil
}

// Errors a start-up probe reports. Each Check error wraps one of them.
var (
	ErrMissing     = errors.New("no mode marker")
	ErrCorrupt     = errors.New("mode marker is unreadable")
	ErrOtherFleet  = errors.New("mode marker names another fleet")
	ErrWrongMode   = errors.New("mode marker names another mode")
	ErrSchemaNewer = errors.New("mode marker schema is newer than this dwk")
	ErrMismatch    = errors.New("mode markers in libSQL and the bucket differ")
)

// Check tells whether m lets a replica of fleet, built for schema, serve.
func (m Marker) Check(fleet string, schema int) error {
	switch {
	case m.Mode != Mode:
		return fmt.Errorf("%w: the stores are marked %q, this replica runs central mode; local and central data are never mixed", ErrWrongMode, m.Mode)
	case m.Fleet != fleet:
		return fmt.Errorf("%w: the stores belong to fleet %q, not %q: point storage at fleet %q's stores, or set fleet.name to %q", ErrOtherFleet, m.Fleet, fleet, fleet, m.Fleet)
	case m.Schema > schema:
		return fmt.Errorf("%w: the stores use schema %d, this dwk understands up to %d: upgrade dwk on this host", ErrSchemaNewer, m.Schema, schema)
	}
	return nil
}

// Same reports whether the libSQL copy and the bucket copy come from one
// provisioning.
func Same(db, bucket Marker) error {
	if db.ID != bucket.ID || db.Fleet != bucket.Fleet {
		return fmt.Errorf("%w: libSQL has fleet %q id %s, the bucket has fleet %q id %s: the bucket belongs to another provisioning; run terraform apply to rewrite the marker, or fix storage.s3.bucket", ErrMismatch, db.Fleet, db.ID, bucket.Fleet, bucket.ID)
	}
	return nil
}
