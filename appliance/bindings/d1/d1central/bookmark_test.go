package d1central

import (
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

// TestBookmarkTableCreatedAgain: when the bookmark table disappears
// behind a DB's back (its database deleted and created again), the
// write that finds it gone fails saying so, and the next one creates it
// again, under a new epoch.
func TestBookmarkTableCreatedAgain(t *testing.T) {
	db := startEnv(t).open(t)
	ctx := t.Context()
	write := []worker.D1Query{{SQL: "CREATE TABLE IF NOT EXISTS t (v)"}}
	rs, err := db.Batch(ctx, write)
	if err != nil {
		t.Fatal(err)
	}
	first, err := worker.ParseD1Bookmark(rs[0].Meta.Bookmark)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Batch(ctx, []worker.D1Query{{SQL: "DROP TABLE " + worker.D1BookmarkTable}}); err == nil {
		t.Fatal("a write that dropped the bookmark table succeeded; want it to say it could not advance the bookmark")
	}
	rs, err = db.Batch(ctx, write)
	if err != nil {
		t.Fatalf("write after the bookmark table was dropped: %v", err)
	}
	again, err := worker.ParseD1Bookmark(rs[0].Meta.Bookmark)
	if err != nil || again.Commit != 1 || again.Epoch == first.Epoch {
		t.Errorf("bookmark after the table came back = %+v, %v; want commit 1 under an epoch other than %x", again, err, first.Epoch)
	}
}
