package migrate_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
	"github.com/dwk/fleet/appliance/migrate"
	"github.com/dwk/fleet/appliance/worker"
)

// TestRunCopiesObjects: an object's tables, KV storage and alarm move,
// the alarm into the destination's index too; objects of other classes
// stay; a second run skips them.
func TestRunCopiesObjects(t *testing.T) {
	ctx := context.Background()
	srcDir, dstDir := t.TempDir(), t.TempDir()
	src, err := migrate.OpenLocalObjects(ctx, srcDir)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := migrate.OpenLocalObjects(ctx, dstDir)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()

	at := time.Now().Add(time.Hour).Truncate(time.Millisecond)
	ids := []worker.ObjectID{worker.NewObjectID("Counter", "", [32]byte{1}), worker.NewObjectID("Counter", "", [32]byte{2}), worker.NewObjectID("Room", "", [32]byte{3})}
	for i, id := range ids {
		db, done, err := src.Open(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		st := worker.NewStorage(db, nil)
		if _, err := st.Exec(ctx, "CREATE TABLE hits (n INTEGER)"); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Exec(ctx, "INSERT INTO hits VALUES (?)", i); err != nil {
			t.Fatal(err)
		}
		if err := st.Put(ctx, "count", []byte{byte(i)}); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			if _, err := db.Batch(ctx, []worker.D1Query{
				{SQL: "CREATE TABLE _dwk_alarm (k INTEGER PRIMARY KEY CHECK (k = 0), at_ms INTEGER NOT NULL)"},
				{SQL: "INSERT INTO _dwk_alarm VALUES (0, ?)", Args: []any{at.UnixMilli()}},
			}); err != nil {
				t.Fatal(err)
			}
		}
		done()
	}

	class := []migrate.Store{{Kind: migrate.KindObjects, Name: "Counter"}}
	res, err := migrate.Run(ctx, migrate.Side{Objects: src}, migrate.Side{Objects: dst}, class, migrate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := res[0]; r.Entries != 2 || r.Copied != 2 || !r.Verified {
		t.Fatalf("result %+v, want 2 objects copied and verified", r)
	}
	db, done, err := dst.Open(ctx, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	got, err := worker.NewStorage(db, nil).Get(ctx, "count")
	rows, err2 := db.Batch(ctx, []worker.D1Query{{SQL: objects.AlarmSelect}, {SQL: "SELECT n FROM hits"}})
	done()
	if err != nil || err2 != nil || len(got) != 1 || got[0] != 0 || rows[0].Rows[0][0] != at.UnixMilli() || rows[1].Rows[0][0] != int64(0) {
		t.Fatalf("copied object: count %v (%v), rows %v (%v)", got, err, rows, err2)
	}
	if has, _ := dst.Has(ctx, ids[2]); has {
		t.Error("an object of another class was copied")
	}
	idx, err := dst.List(ctx)
	if err != nil || len(idx) != 2 {
		t.Errorf("destination lists %v, %v", idx, err)
	}

	idxDB, err := objlocal.OpenAlarmIndex(ctx, filepath.Join(dstDir, objlocal.AlarmIndexFile))
	if err != nil {
		t.Fatal(err)
	}
	due, err := idxDB.Due(ctx, []string{"Counter"}, at.Add(time.Second), 10)
	idxDB.Close()
	if err != nil || len(due) != 1 || !due[0].Object.Equal(ids[0]) || !due[0].At.Equal(at) {
		t.Errorf("destination's alarm index: %+v %v, want the alarm of %s at %v", due, err, ids[0], at)
	}

	again, err := migrate.Run(ctx, migrate.Side{Objects: src}, migrate.Side{Objects: dst}, class, migrate.Options{})
	if err != nil || again[0].Skipped != 2 {
		t.Fatalf("second run: %+v %v, want both skipped", again, err)
	}
}
