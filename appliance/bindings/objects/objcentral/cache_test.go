package objcentral_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects/objcentral"
	"github.com/dwk/fleet/test/libsqlserver"
	"github.com/dwk/fleet/test/wait"
)

// TestCopiesSurviveOnlyACleanShutdown closes a store cleanly and checks
// that the next store on the same directory reopens the copy without
// fetching a page (then only what another holder wrote since); after a
// crash (no Close), every page is fetched again.
func TestCopiesSurviveOnlyACleanShutdown(t *testing.T) {
	b := newBackend(t, libsqlserver.Start(t))
	ctx := ctxFor(t)
	dir := t.TempDir()
	id := testID("Cache", "x")
	storeAt := func(dir string) *objcentral.Store {
		t.Helper()
		s, err := objcentral.NewStore(objcentral.StoreConfig{
			Shards:          []objcentral.Shard{{Name: b.srv.URL, Client: b.client(t, ""), Admin: b.admin}},
			NamespacePrefix: b.prefix, CacheDir: dir, Logger: quiet(),
		})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	epoch := int64(0)
	use := func(s *objcentral.Store, sql ...string) string {
		t.Helper()
		epoch++
		db, err := s.Open(ctx, id, newFakeLease(epoch))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		mustBatch(t, db, sql...)
		return fmt.Sprint(mustBatch(t, db, "SELECT count(*) FROM t")[0].Rows)
	}

	first := storeAt(dir)
	use(first, "CREATE TABLE t (v)", "INSERT INTO t VALUES (randomblob(9000))")
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	second := storeAt(dir)
	if got := use(second, "SELECT 1"); got != "[[1]]" {
		t.Fatalf("after a clean restart: count = %s", got)
	}
	if st := second.Stats(); st.OpensCurrent != 1 || st.PagesFetched != 0 {
		t.Errorf("after a clean restart: %+v, want one current open and no page fetched", st)
	}
	// Another holder writes; this store's copy is then one version behind.
	other := storeAt(t.TempDir())
	use(other, "INSERT INTO t VALUES (1)")
	if got := use(second, "SELECT 1"); got != "[[2]]" {
		t.Fatalf("after another holder wrote: count = %s, want the new row", got)
	}
	if st := second.Stats(); st.OpensIncremental != 1 || st.PagesFetched == 0 {
		t.Errorf("after another holder wrote: %+v, want one incremental open", st)
	}
	// A crash: the store is never closed, so nothing vouches for its copies.
	// Its last copy closes in the background; a crashed process writes
	// nothing after the crash, so that close must be done before the next
	// store reads the directory.
	wait.Within(t, 10*time.Second, "the second store's copy to close", func() bool {
		metas, _ := filepath.Glob(filepath.Join(dir, "*.meta"))
		return len(metas) > 0
	})
	third := storeAt(dir)
	if got := use(third, "SELECT 1"); got != "[[2]]" {
		t.Fatalf("after a crash: count = %s", got)
	}
	if st := third.Stats(); st.OpensFull != 1 {
		t.Errorf("after a crash: %+v, want a full sync", st)
	}
	if st := third.Stats(); st.Commits != 0 {
		t.Errorf("reads committed: %+v", st)
	}
}
