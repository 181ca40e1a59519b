package coord

import (
	"context"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// Now returns the libSQL server's clock, the one expiry is judged by, to
// the millisecond, in one round trip. For a skew estimate compare it with
// the local clock at the midpoint of the call.
func (s *Store) Now(ctx context.Context) (time.Time, error) {
	ctx, cancel, err := s.begin(ctx)
	if err != nil {
		return time.Time{}, err
	}
	defer cancel()
	res, err := s.c.Execute(ctx, hrana.NewStmt(`SELECT `+nowMS))
	if err != nil {
		return time.Time{}, fmt.Errorf("read the libSQL server's clock: %w", err)
	}
	if len(res.Rows) != 1 || len(res.Rows[0]) != 1 || res.Rows[0][0].Kind != hrana.KindInteger {
		return time.Time{}, fmt.Errorf("read the libSQL server's clock: unexpected result %v", res.Rows)
	}
	return time.UnixMilli(res.Rows[0][0].Int).UTC(), nil
}
