package migrate_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/migrate"
	"github.com/dwk/fleet/appliance/server/storeset"
	"github.com/dwk/fleet/appliance/worker"
)

func openLocal(t *testing.T) *storeset.Local {
	t.Helper()
	st, err := storeset.OpenLocal(context.Background(), t.TempDir(), storeset.LocalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

var stores = []migrate.Store{{Kind: migrate.KindD1, Name: "db"}, {Kind: migrate.KindKV, Name: "cache"}, {Kind: migrate.KindR2, Name: "files"}}

// fill puts a table, keys with metadata and an expiration, and objects
// (one multipart) into st.
func fill(t *testing.T, st *storeset.Local) {
	t.Helper()
	ctx := context.Background()
	db, _ := st.D1("db")
	if _, err := db.Exec(ctx, "CREATE TABLE notes (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT, data BLOB); CREATE INDEX notes_body ON notes(body); INSERT INTO notes (body, data) VALUES ('a', X'00ff'), ('it''s', NULL)"); err != nil {
		t.Fatal(err)
	}
	kv, _ := st.KV("cache")
	for i, k := range []string{"a", "b/c", "ü"} {
		opts := &worker.KVPutOptions{Metadata: []byte(`{"n":` + string(rune('0'+i)) + `}`)}
		if i == 1 {
			opts.Expiration = time.Now().Add(time.Hour)
		}
		if err := kv.Put(ctx, k, []byte("value "+k), opts); err != nil {
			t.Fatal(err)
		}
	}
	r2, _ := st.R2("files")
	if _, err := r2.Put(ctx, "small.txt", strings.NewReader("hello"), &worker.R2PutOptions{
		HTTPMetadata: worker.R2HTTPMetadata{ContentType: "text/plain"}, CustomMetadata: map[string]string{"owner": "ann"},
	}); err != nil {
		t.Fatal(err)
	}
	up, err := r2.CreateMultipartUpload(ctx, "big.bin", &worker.R2MultipartOptions{HTTPMetadata: worker.R2HTTPMetadata{ContentType: "application/octet-stream"}})
	if err != nil {
		t.Fatal(err)
	}
	var parts []worker.R2UploadedPart
	for n, size := range []int{5 << 20, 1000} {
		p, err := up.UploadPart(ctx, n+1, bytes.NewReader(bytes.Repeat([]byte{byte('a' + n)}, size)))
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, p)
	}
	if _, err := up.Complete(ctx, parts); err != nil {
		t.Fatal(err)
	}
}

// TestRunCopiesVerifiesAndResumes: a run copies every entry and verifies
// it; a second run skips everything; a destination entry with other
// content is a conflict that stops a run before it writes, unless
// Replace; a dry run writes nothing.
func TestRunCopiesVerifiesAndResumes(t *testing.T) {
	ctx := context.Background()
	src, dst := openLocal(t), openLocal(t)
	fill(t, src)

	dry, err := migrate.Run(ctx, migrate.Side{Stores: src}, migrate.Side{Stores: dst}, stores, migrate.Options{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if kv, _ := dst.KV("cache"); get(t, kv, "a") != "" {
		t.Fatal("a dry run wrote a key")
	}
	want := map[string]int{"d1": 1, "kv": 3, "r2": 2}
	for _, r := range dry {
		if r.Entries != want[r.Kind] || r.Copied != 0 {
			t.Errorf("dry run %s: %+v, want %d entries, none copied", r.Store, r, want[r.Kind])
		}
	}

	res, err := migrate.Run(ctx, migrate.Side{Stores: src}, migrate.Side{Stores: dst}, stores, migrate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Copied != want[r.Kind] || !r.Verified {
			t.Errorf("%s: %+v, want %d copied and verified", r.Store, r, want[r.Kind])
		}
	}
	kv, _ := dst.KV("cache")
	if v, md, err := kv.GetWithMetadata(ctx, "ü"); err != nil || string(v) != "value ü" || string(md) != `{"n":2}` {
		t.Errorf("copied key: %q %s %v", v, md, err)
	}
	r2, _ := dst.R2("files")
	o, err := r2.Head(ctx, "small.txt")
	if err != nil || o.HTTPMetadata.ContentType != "text/plain" || o.CustomMetadata["owner"] != "ann" || o.ETag != "5d41402abc4b2a76b9719d911017c592" {
		t.Errorf("copied object: %+v %v; want its metadata and ETag kept", o, err)
	}

	again, err := migrate.Run(ctx, migrate.Side{Stores: src}, migrate.Side{Stores: dst}, stores, migrate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range again {
		if r.Skipped != want[r.Kind] || r.Copied+r.Replaced != 0 {
			t.Errorf("second run %s: %+v, want everything skipped", r.Store, r)
		}
	}

	if err := kv.Put(ctx, "a", []byte("changed"), nil); err != nil {
		t.Fatal(err)
	}
	db, _ := dst.D1("db")
	if _, err := db.Exec(ctx, "INSERT INTO notes (body) VALUES ('extra')"); err != nil {
		t.Fatal(err)
	}
	if _, err := migrate.Run(ctx, migrate.Side{Stores: src}, migrate.Side{Stores: dst}, stores, migrate.Options{}); !errors.Is(err, migrate.ErrConflict) || !strings.Contains(err.Error(), `"a"`) {
		t.Fatalf("run over other content: %v, want ErrConflict naming the key", err)
	}
	if get(t, kv, "a") != "changed" {
		t.Fatal("a refused run wrote")
	}
	res, err = migrate.Run(ctx, migrate.Side{Stores: src}, migrate.Side{Stores: dst}, stores, migrate.Options{Replace: true})
	if err != nil {
		t.Fatal(err)
	}
	if get(t, kv, "a") != "value a" || res[0].Replaced != 1 || res[1].Replaced != 1 {
		t.Errorf("replace: key a = %q, results %+v", get(t, kv, "a"), res)
	}
	rows, err := db.Batch(ctx, []worker.D1Query{{SQL: "SELECT count(*) FROM notes"}})
	if err != nil || rows[0].Rows[0][0] != int64(2) {
		t.Errorf("replaced database: %v %v, want the source's 2 rows", rows, err)
	}
}

func get(t *testing.T, kv worker.KVNamespace, key string) string {
	t.Helper()
	v, err := kv.Get(context.Background(), key)
	if errors.Is(err, worker.ErrNotFound) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(v)
}
