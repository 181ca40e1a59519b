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
	e := startEnv(t)
	if e.admin == nil {
		t.Skip("the server has no admin API to delete and create the database with")
	}
	cfg := e.config(t)
	db := openConfig(t, cfg)
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
	if err := e.admin.Delete(ctx, cfg.Namespace); err != nil {
		t.Fatal(err)
	}
	if err := e.admin.Create(ctx, cfg.Namespace); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Batch(ctx, write); err == nil {
		t.Fatal("a write into the database created again succeeded without its bookmark table; want it to say it could not advance the bookmark")
	}
	rs, err = db.Batch(ctx, write)
	if err != nil {
		t.Fatalf("write after the bookmark table was gone: %v", err)
	}
	again, err := worker.ParseD1Bookmark(rs[0].Meta.Bookmark)
	if err != nil || again.Commit != 1 || again.Epoch == first.Epoch {
		t.Errorf("bookmark after the table came back = %+v, %v; want commit 1 under an epoch other than %x", again, err, first.Epoch)
	}
}
