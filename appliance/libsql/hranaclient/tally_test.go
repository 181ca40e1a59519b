package hranaclient

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// TestTallyCountsRoundTripsUnderItsContext: round trips sent under a
// context carrying a tally are counted in it, split by namespace, clients
// derived with WithNamespace included; round trips under other contexts
// are not.
func TestTallyCountsRoundTripsUnderItsContext(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { okBatch(w) }))
	defer srv.Close()
	coord := newClient(t, srv.URL, Config{Namespace: "coord"})
	other := coord.WithNamespace("objects")
	step := []hrana.BatchStep{{Stmt: hrana.NewStmt("SELECT 1")}}

	tally := NewTally("coord")
	ctx, cancel := context.WithCancel(WithTally(context.Background(), tally))
	defer cancel()
	for _, c := range []*Client{coord, other, other} {
		if _, err := c.Batch(ctx, step); err != nil {
			t.Fatal(err)
		}
	}
	// Background work: not this tally's.
	if _, err := coord.Batch(context.Background(), step); err != nil {
		t.Fatal(err)
	}
	gotIn, gotOther := tally.Counts()
	if gotIn != 1 || gotOther != 2 {
		t.Errorf("Counts() = %d, %d; want 1 to coord, 2 elsewhere", gotIn, gotOther)
	}
	if got, want := coord.RoundTrips(), uint64(4); got != want {
		t.Errorf("RoundTrips() = %d, want %d", got, want)
	}
	if TallyFrom(context.Background()) != nil {
		t.Error("TallyFrom of a bare context is not nil")
	}
}
