package objcentral

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/wait"
)

// TestSpareCopies: a cache makes empty copies ahead of time, once the
// first is asked for; placing one
// gives a WAL database with nothing in it, which a copy opens as it would
// a new file, and more are made to replace it.
func TestSpareCopies(t *testing.T) {
	c := newCache(t.TempDir(), 0)
	if _, _, err := c.acquire("a"); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		c.spares.mu.Lock()
		defer c.spares.mu.Unlock()
		return len(c.spares.ready)
	}
	path := c.path("a")
	if ok, err := c.placeSpare(path); err != nil || ok {
		t.Fatalf("a spare before any was asked for: %v, %v", ok, err)
	}
	wait.Within(t, 20*time.Second, "the spare copies", func() bool { return count() == spareCopies })
	if ok, err := c.placeSpare(path); err != nil || !ok {
		t.Fatalf("place a spare: %v, %v", ok, err)
	}
	for _, p := range []string{path + "-wal", path + "-shm"} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s: %v, want none", p, err)
		}
	}
	db, err := objlocal.OpenFile(t.Context(), path, copyOptions)
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Batch(t.Context(), []worker.D1Query{{SQL: "PRAGMA journal_mode"}, {SQL: "SELECT count(*) FROM sqlite_schema"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(res[0].Rows, res[1].Rows); got != "[[wal]] [[0]]" {
		t.Errorf("a placed spare: %s, want [[wal]] [[0]]", got)
	}
	db.Close()
	wait.Within(t, 20*time.Second, "the spare copies to be made again", func() bool { return count() == spareCopies })
	if err := c.close(); err != nil {
		t.Fatal(err)
	}
}
