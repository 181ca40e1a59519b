package coordfleet

import (
	"context"

	"github.com/dwk/fleet/appliance/fleet/membership"
)

// Members lists member records through a Conn.
type Members struct {
	conn *Conn
}

var _ membership.Lister = Members{}

// NewMembers returns a lister over conn.
func NewMembers(conn *Conn) Members { return Members{conn: conn} }

// List returns every live member record in id order: one round trip per
// 1000 members (plus one to open the store the first time).
func (m Members) List(ctx context.Context) ([]membership.Member, error) {
	st, err := m.conn.Store(ctx)
	if err != nil {
		return nil, err
	}
	return membership.NewRegistry(st, m.conn.log).List(ctx)
}
