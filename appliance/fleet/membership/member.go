package membership

import (
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
)

// State is where a member is in its lifecycle. A member that is gone has
// no record.
type State string

// Member states.
const (
	// StateStarting: the replica runs its start-up probes and opens its
	// stores; it takes no traffic.
	StateStarting State = "starting"
	// StateReady: the replica serves; load balancers and placement choose
	// it.
	StateReady State = "ready"
	// StateDraining: the replica finishes in-flight work and hands its
	// leases back; nothing new is sent to it.
	StateDraining State = "draining"
)

// Valid reports whether s is one of the three states.
func (s State) Valid() bool {
	return s == StateStarting || s == StateReady || s == StateDraining
}

// rank orders the states along the lifecycle.
func (s State) rank() int {
	switch s {
	case StateStarting:
		return 0
	case StateReady:
		return 1
	}
	return 2
}

// MaxIDLen is the longest member id, in bytes.
const MaxIDLen = 255

// Member is one replica's record.
type Member struct {
	// ID names the replica in the fleet (config fleet.member); unique.
	ID string `json:"id"`
	// State is the replica's lifecycle state.
	State State `json:"state"`
	// Public is the front door's address (listen.public).
	Public string `json:"public,omitempty"`
	// Internal is the address other replicas forward to
	// (listen.advertise). Required.
	Internal string `json:"internal"`
	// Admin is the admin API's address (listen.admin), "" when admin
	// routes are served on Public.
	Admin string `json:"admin,omitempty"`
	// Version is the replica's dwk version (buildinfo.Version).
	Version string `json:"version,omitempty"`
	// ConfigHash is the digest of the replica's configuration
	// (config.Config.Hash), so drift shows up fleet-wide.
	ConfigHash string `json:"config_hash,omitempty"`
	// Started is when the replica started, by its own clock.
	Started time.Time `json:"started"`
	// Heartbeat is when the record was last written, by the replica's
	// clock.
	Heartbeat time.Time `json:"heartbeat"`
	// Deposed says the replica's peers cannot reach it and deposed it
	// (package depose): it holds no object and answers no forward.
	Deposed bool `json:"deposed,omitempty"`
	// Expires is when the record expires by the libSQL server's clock
	// unless it is written again. Set by Registry reads; not stored in
	// the record.
	Expires time.Time `json:"-"`
}

// Validate reports ErrInvalidMember for a record no replica should write.
func (m Member) Validate() error {
	switch {
	case m.ID == "" || len(m.ID) > MaxIDLen || !utf8.ValidString(m.ID):
		return fmt.Errorf("%w: id %q must be 1 to %d bytes of UTF-8", ErrInvalidMember, m.ID, MaxIDLen)
	case !m.State.Valid():
		return fmt.Errorf("%w %q: state %q is not starting, ready or draining", ErrInvalidMember, m.ID, m.State)
	case m.Internal == "":
		return fmt.Errorf("%w %q: no internal address", ErrInvalidMember, m.ID)
	}
	return nil
}

// Key is the coordination key of member id's record: ("member", id).
func Key(id string) tuple.Key { return tuple.Key{"member", id} }

// prefix selects every member record.
var prefix = tuple.Key{"member"}

// encode is the stored form of m.
func (m Member) encode() ([]byte, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode member %q: %w", m.ID, err)
	}
	return b, nil
}

// decode parses a stored record. Unknown fields are ignored, so that
// replicas of a newer version may add some.
func decode(b []byte) (Member, error) {
	var m Member
	if err := json.Unmarshal(b, &m); err != nil {
		return Member{}, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if m.ID == "" {
		return Member{}, fmt.Errorf("%w: no id", ErrCorrupt)
	}
	return m, nil
}

// sameAs reports whether m and o describe the same replica in the same
// state at the same addresses: everything but the heartbeat and expiry
// times, which change with every write.
func (m Member) sameAs(o Member) bool {
	return m.ID == o.ID && m.State == o.State && m.Public == o.Public && m.Internal == o.Internal &&
		m.Admin == o.Admin && m.Version == o.Version && m.ConfigHash == o.ConfigHash && m.Started.Equal(o.Started)
}
