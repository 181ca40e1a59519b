package objlocal_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/appliance/worker"
)

func testID(ns, name string) worker.ObjectID {
	return worker.NewObjectID(ns, name, objectid.FromName([]byte("s"), ns, name))
}

func TestAlarmIndex(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "alarms.sqlite")
	idx, err := objlocal.OpenAlarmIndex(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	t0 := time.UnixMilli(1_900_000_000_000)
	a, b, c, other := testID("A", "a"), testID("A", "b"), testID("A", "c"), testID("B", "x")
	for _, e := range []objects.AlarmEntry{
		{Object: a, At: t0.Add(2 * time.Second)},
		{Object: b, At: t0.Add(time.Second), Retries: 3},
		{Object: c, At: t0.Add(time.Hour)},
		{Object: other, At: t0},
	} {
		if err := idx.Put(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	due, err := idx.Due(ctx, []string{"A"}, t0.Add(5*time.Second), 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(due) != 2 || !due[0].Object.Equal(b) || !due[1].Object.Equal(a) {
		t.Fatalf("Due = %+v, want b then a", due)
	}
	if due[0].Retries != 3 || !due[0].At.Equal(t0.Add(time.Second)) {
		t.Errorf("entry b = %+v", due[0])
	}
	if due, _ := idx.Due(ctx, []string{"A", "B"}, t0.Add(5*time.Second), 1); len(due) != 1 || !due[0].Object.Equal(other) {
		t.Errorf("Due with limit 1 = %+v, want the earliest (B/x)", due)
	}
	// Put replaces; Delete removes; deleting twice is fine.
	idx.Put(ctx, objects.AlarmEntry{Object: a, At: t0.Add(time.Hour)})
	idx.Delete(ctx, b)
	if err := idx.Delete(ctx, b); err != nil {
		t.Errorf("second Delete: %v", err)
	}
	if due, _ := idx.Due(ctx, []string{"A"}, t0.Add(5*time.Second), 10); len(due) != 0 {
		t.Errorf("Due after Put/Delete = %+v, want none", due)
	}
	// Entries survive reopening.
	idx.Close()
	idx, err = objlocal.OpenAlarmIndex(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if due, _ := idx.Due(ctx, []string{"A"}, t0.Add(2*time.Hour), 10); len(due) != 2 {
		t.Errorf("after reopen Due = %+v, want 2 entries", due)
	}
}

func TestStoreLayout(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := objlocal.NewStore(dir)
	id := testID("Counter", "n")
	db, err := s.Open(ctx, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "objects", "Counter", id.String()+".sqlite")
	if s.Path(id) != want {
		t.Errorf("Path = %s, want %s", s.Path(id), want)
	}
	if _, err := os.Stat(want); err != nil {
		t.Errorf("database file not created: %v", err)
	}
	if err := db.DeleteAll(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(want); !os.IsNotExist(err) {
		t.Errorf("DeleteAll left the file: %v", err)
	}
	if _, err := db.Batch(ctx, []worker.D1Query{{SQL: "CREATE TABLE t (x)"}}); err != nil {
		t.Errorf("database unusable after DeleteAll: %v", err)
	}
	db.Close()
	if _, err := db.Batch(ctx, []worker.D1Query{{SQL: "SELECT 1"}}); err == nil {
		t.Error("Batch after Close succeeded")
	}
	if _, err := s.Open(ctx, worker.NewObjectID("..", "", [32]byte{}), nil); err == nil {
		t.Error("Open accepted namespace \"..\"")
	}
}

func TestTimeColumnsComeBackAsText(t *testing.T) {
	ctx := context.Background()
	db, err := objlocal.NewStore(t.TempDir()).Open(ctx, testID("T", "t"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rs, err := db.Batch(ctx, []worker.D1Query{
		{SQL: "CREATE TABLE t (at DATETIME)"},
		{SQL: "INSERT INTO t VALUES ('2024-05-06 07:08:09')"},
		{SQL: "SELECT at FROM t"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := rs[2].Rows[0][0]; got != "2024-05-06 07:08:09" {
		t.Errorf("DATETIME value = %#v, want the stored text", got)
	}
}
