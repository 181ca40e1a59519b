package objcentral_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objcentral"
	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/appliance/libsql"
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/libsqlserver"
)

// fakeLease is an objects.Lease with a fixed epoch that a test can lose
// (lose), as the lease manager loses one whose renewal is late: not fresh
// any more, its context cancelled.
type fakeLease struct {
	epoch  int64
	lost   chan struct{}
	ctx    context.Context
	cancel context.CancelCauseFunc
}

var _ objects.Lease = (*fakeLease)(nil)

func newFakeLease(epoch int64) *fakeLease {
	ctx, cancel := context.WithCancelCause(context.Background())
	return &fakeLease{epoch: epoch, lost: make(chan struct{}), ctx: ctx, cancel: cancel}
}

func (l *fakeLease) Epoch() int64                  { return l.epoch }
func (l *fakeLease) Lost() <-chan struct{}         { return l.lost }
func (l *fakeLease) Release(context.Context) error { return nil }
func (l *fakeLease) Context() context.Context      { return l.ctx }
func (l *fakeLease) Fresh() bool                   { return l.ctx.Err() == nil }

func (l *fakeLease) lose() {
	l.cancel(errors.New("lease: lost: deadline passed without a successful renewal"))
	close(l.lost)
}

func testID(class, name string) worker.ObjectID {
	return worker.NewObjectID(class, name, objectid.FromName([]byte(secret), class, name))
}

func mustBatch(t *testing.T, db objects.ObjectDB, sql ...string) []worker.D1Result {
	t.Helper()
	qs := make([]worker.D1Query, len(sql))
	for i, s := range sql {
		qs[i] = worker.D1Query{SQL: s}
	}
	rs, err := db.Batch(ctxFor(t), qs)
	if err != nil {
		t.Fatalf("Batch(%q): %v", sql, err)
	}
	return rs
}

// TestFencing opens one object's database under epoch 1, then under epoch
// 2, and checks that nothing the epoch-1 holder tries afterwards lands or
// reads, and that it cannot reopen.
func TestFencing(t *testing.T) {
	b := newBackend(t, libsqlserver.Start(t))
	oldStore, _ := b.objectStore(t)
	store, _ := b.objectStore(t)
	ctx := ctxFor(t)
	id := testID("Fence", "x")

	oldLease := newFakeLease(1)
	old, err := oldStore.Open(ctx, id, oldLease)
	if err != nil {
		t.Fatal(err)
	}
	mustBatch(t, old, "CREATE TABLE t (v)", "INSERT INTO t VALUES ('old, before takeover')")
	if _, err := store.Open(ctx, id, newFakeLease(0)); !errors.Is(err, objcentral.ErrNoEpoch) {
		t.Errorf("Open with epoch 0: err = %v, want ErrNoEpoch", err)
	}

	cur, err := store.Open(ctx, id, newFakeLease(2))
	if err != nil {
		t.Fatal(err)
	}
	// Sync-before-serve: the new holder sees the old holder's write.
	if rs := mustBatch(t, cur, "SELECT v FROM t"); len(rs[0].Rows) != 1 {
		t.Fatalf("new holder sees %v, want the old holder's row", rs[0].Rows)
	}
	mustBatch(t, cur, "INSERT INTO t VALUES ('new')")

	attempts := map[string]func() error{
		"write batch": func() error {
			_, err := old.Batch(ctx, []worker.D1Query{{SQL: "INSERT INTO t VALUES ('stale')"}})
			return err
		},
		// Reads are local while the lease is fresh (by the holder's clock);
		// a refused write leaves the copy stale, so reads stop too.
		"read batch after a refused write": func() error {
			_, err := old.Batch(ctx, []worker.D1Query{{SQL: "SELECT count(*) FROM t"}})
			return err
		},
		"transaction": func() error {
			return old.Transaction(ctx, func(tx worker.SQLExecer) error {
				_, err := tx.Exec(ctx, worker.D1Query{SQL: "INSERT INTO t VALUES ('stale tx')"})
				return err
			})
		},
		"delete all": func() error { return old.DeleteAll(ctx) },
		"reopen": func() error {
			old.Close()
			_, err := oldStore.Open(ctx, id, oldLease)
			return err
		},
	}
	for _, name := range []string{"write batch", "read batch after a refused write", "transaction", "delete all", "reopen"} {
		if err := attempts[name](); !errors.Is(err, objects.ErrFenced) {
			t.Errorf("stale %s: err = %v, want ErrFenced", name, err)
		}
	}
	rs := mustBatch(t, cur, "SELECT v FROM t ORDER BY rowid")
	if got := fmt.Sprint(rs[0].Rows); got != "[[old, before takeover] [new]]" {
		t.Errorf("rows = %s: a stale write landed or a write was lost", got)
	}
	// A lease lost by this replica's clock (a late renewal) while no other
	// holder took over: the events in flight finish, each call confirmed
	// at the primary and each write under the epoch guard, so the write
	// lands and the next holder sees it; once a newer holder fenced the
	// database, the old copy refuses.
	cur.Close()
	l := newFakeLease(3)
	db, err := store.Open(ctx, id, l)
	if err != nil {
		t.Fatal(err)
	}
	l.lose()
	mustBatch(t, db, "INSERT INTO t VALUES ('after a late renewal')")
	next, err := oldStore.Open(ctx, id, newFakeLease(4))
	if err != nil {
		t.Fatal(err)
	}
	if rs := mustBatch(t, next, "SELECT count(*) FROM t WHERE v = 'after a late renewal'"); rs[0].Rows[0][0] != int64(1) {
		t.Errorf("the next holder sees %v rows written after the late renewal, want 1", rs[0].Rows[0][0])
	}
	if _, err := db.Batch(ctx, []worker.D1Query{{SQL: "SELECT 1"}}); !errors.Is(err, objects.ErrFenced) {
		t.Errorf("Batch of a lost holder after a newer one fenced the database: err = %v, want ErrFenced", err)
	}
	next.Close()
	db.Close()
	if _, err := db.Batch(ctx, []worker.D1Query{{SQL: "SELECT 1"}}); !errors.Is(err, objcentral.ErrClosed) {
		t.Errorf("Batch after Close: err = %v, want ErrClosed", err)
	}
}

// TestDeleteAllKeepsTheEpoch checks that DeleteAll empties the database
// (tables, views, triggers, foreign keys between tables) but keeps the
// epoch, so a stale holder stays fenced afterwards.
func TestDeleteAllKeepsTheEpoch(t *testing.T) {
	b := newBackend(t, libsqlserver.Start(t))
	store, _ := b.objectStore(t)
	ctx := ctxFor(t)
	id := testID("Wipe", "x")
	db, err := store.Open(ctx, id, newFakeLease(5))
	if err != nil {
		t.Fatal(err)
	}
	mustBatch(t, db,
		"CREATE TABLE parent (id INTEGER PRIMARY KEY)",
		"CREATE TABLE child (p INTEGER REFERENCES parent(id))",
		"INSERT INTO parent VALUES (1)",
		"INSERT INTO child VALUES (1)",
		"CREATE VIEW v AS SELECT * FROM child",
		"CREATE INDEX ci ON child (p)",
		"CREATE TRIGGER tr AFTER INSERT ON parent BEGIN INSERT INTO child VALUES (new.id); END",
		`CREATE TABLE "odd ""name""" (x)`,
	)
	if err := db.DeleteAll(ctx); err != nil {
		t.Fatal(err)
	}
	rs := mustBatch(t, db, "SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
	if got := fmt.Sprint(rs[0].Rows); got != "[]" {
		t.Errorf("schema after DeleteAll = %s, want nothing", got)
	}
	db.Close()
	fresh, err := store.Open(ctx, id, newFakeLease(6))
	if err != nil {
		t.Fatal(err)
	}
	rs = mustBatch(t, fresh, "SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
	if got := fmt.Sprint(rs[0].Rows); got != "[]" {
		t.Errorf("schema after DeleteAll, reopened = %s, want nothing", got)
	}
	fresh.Close()
	if _, err := store.Open(ctx, id, newFakeLease(4)); !errors.Is(err, objects.ErrFenced) {
		t.Errorf("Open with an older epoch after DeleteAll: err = %v, want ErrFenced", err)
	}
}

// TestBatchSemantics covers what objtest does not: several statements in
// one query, statement errors naming their index, atomicity.
func TestBatchSemantics(t *testing.T) {
	b := newBackend(t, libsqlserver.Start(t))
	store, _ := b.objectStore(t)
	ctx := ctxFor(t)
	db, err := store.Open(ctx, testID("Sem", "x"), newFakeLease(1))
	if err != nil {
		t.Fatal(err)
	}
	rs := mustBatch(t, db, "CREATE TABLE t (v); INSERT INTO t VALUES (1); SELECT count(*) AS n FROM t")
	if got := fmt.Sprint(rs[0].Columns, rs[0].Rows); got != "[n] [[1]]" {
		t.Errorf("multi-statement result = %s, want the last statement's", got)
	}
	_, err = db.Batch(ctx, []worker.D1Query{
		{SQL: "INSERT INTO t VALUES (?)", Args: []any{int64(2)}},
		{SQL: "INSERT INTO missing VALUES (1)"},
	})
	var de *worker.D1Error
	if !errors.As(err, &de) || de.Index != 1 {
		t.Fatalf("failing batch: err = %v, want a D1Error for statement 1", err)
	}
	if rs := mustBatch(t, db, "SELECT count(*) FROM t"); rs[0].Rows[0][0] != int64(1) {
		t.Errorf("rows after a failed batch = %v: the batch was not atomic", rs[0].Rows)
	}
	_, err = db.Batch(ctx, []worker.D1Query{{SQL: "SELECT 1; SELECT ?", Args: []any{int64(1)}}})
	if !errors.Is(err, objcentral.ErrStatement) {
		t.Errorf("several statements with arguments: err = %v, want ErrStatement", err)
	}
	rs = mustBatch(t, db, "INSERT INTO t VALUES (7)")
	if m := rs[0].Meta; m.Changes != 1 || m.RowsWritten != 1 || m.LastRowID == 0 {
		t.Errorf("insert meta = %+v", m)
	}
}

// TestNamespaceNames checks that database names are valid namespace names
// for every class name the runtime accepts, distinct per class and id.
func TestNamespaceNames(t *testing.T) {
	store, err := objcentral.NewStore(objcentral.StoreConfig{
		Shards: []objcentral.Shard{{Name: "s", Client: mustClient(t), Admin: mustAdmin(t)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, class := range []string{"Counter", "chat.Room", "X", strings.Repeat("Long_Class-Name.", 8), "_"} {
		for _, name := range []string{"a", "b"} {
			ns := store.Namespace(testID(class, name))
			if err := libsql.ValidateNamespace(ns); err != nil {
				t.Errorf("class %q: %v", class, err)
			}
			if !strings.HasPrefix(ns, objcentral.DefaultNamespacePrefix) {
				t.Errorf("name %q lacks the prefix", ns)
			}
			if seen[ns] {
				t.Errorf("name %q used twice", ns)
			}
			seen[ns] = true
		}
	}
	if got := store.Namespace(testID("Counter", "a")); !strings.HasPrefix(got, "do-counter-") {
		t.Errorf("name %q does not show the class", got)
	}
	for _, cfg := range []objcentral.StoreConfig{
		{},
		{Shards: []objcentral.Shard{{Name: "s"}}},
		{Shards: []objcentral.Shard{{Name: "s", Client: mustClient(t), Admin: mustAdmin(t)}}, NamespacePrefix: "Bad!"},
		{Shards: []objcentral.Shard{{Name: "s", Client: mustClient(t), Admin: mustAdmin(t)}}, NamespacePrefix: strings.Repeat("p", 21)},
	} {
		if _, err := objcentral.NewStore(cfg); err == nil {
			t.Errorf("NewStore(%+v) accepted an invalid config", cfg)
		}
	}
}

// TestShards spreads objects over two libSQL servers by rendezvous hash
// and checks that adding a shard later moves no object's data.
func TestShards(t *testing.T) {
	one, two := newBackend(t, libsqlserver.Start(t)), newBackend(t, libsqlserver.Start(t))
	two.prefix = one.prefix
	shard := func(b *backend) objcentral.Shard {
		return objcentral.Shard{Name: b.srv.URL, Client: b.client(t, ""), Admin: b.admin}
	}
	ctx := ctxFor(t)
	oneOnly, err := objcentral.NewStore(objcentral.StoreConfig{Shards: []objcentral.Shard{shard(one)}, NamespacePrefix: one.prefix})
	if err != nil {
		t.Fatal(err)
	}
	both, err := objcentral.NewStore(objcentral.StoreConfig{Shards: []objcentral.Shard{shard(one), shard(two)}, NamespacePrefix: one.prefix})
	if err != nil {
		t.Fatal(err)
	}
	// Objects written before the second shard existed.
	for i := range 6 {
		db, err := oneOnly.Open(ctx, testID("Shard", fmt.Sprint("old", i)), newFakeLease(1))
		if err != nil {
			t.Fatal(err)
		}
		mustBatch(t, db, "CREATE TABLE t (v)", fmt.Sprintf("INSERT INTO t VALUES (%d)", i))
	}
	for i := range 6 {
		db, err := both.Open(ctx, testID("Shard", fmt.Sprint("old", i)), newFakeLease(2))
		if err != nil {
			t.Fatal(err)
		}
		if rs := mustBatch(t, db, "SELECT v FROM t"); fmt.Sprint(rs[0].Rows) != fmt.Sprintf("[[%d]]", i) {
			t.Errorf("object old%d lost its data when a shard was added: %v", i, rs[0].Rows)
		}
	}
	// New objects spread over both.
	count := map[string]int{}
	for i := range 16 {
		id := testID("Shard", fmt.Sprint("new", i))
		db, err := both.Open(ctx, id, newFakeLease(1))
		if err != nil {
			t.Fatal(err)
		}
		mustBatch(t, db, "CREATE TABLE t (v)")
		for _, b := range []*backend{one, two} {
			res, err := b.client(t, both.PackOf(id)).Execute(ctx, hrana.NewStmt(`SELECT count(*) FROM _dwk_object_heads WHERE obj = ?`, hrana.Text(both.Namespace(id))))
			if err == nil && res.Rows[0][0].Int == 1 {
				count[b.srv.URL]++
			}
		}
	}
	if count[one.srv.URL] == 0 || count[two.srv.URL] == 0 || count[one.srv.URL]+count[two.srv.URL] != 16 {
		t.Errorf("16 new objects spread as %v, want both shards used, each object once", count)
	}
}

func mustClient(t *testing.T) *hranaclient.Client {
	t.Helper()
	c, err := hranaclient.New(hranaclient.Config{URL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustAdmin(t *testing.T) *libsqladmin.Client {
	t.Helper()
	c, err := libsqladmin.New(libsqladmin.Config{URL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCommitStreams checks that commits go over a commit stream, one round
// trip each once it is open, that no more streams open than the store
// allows (the others commit over HTTP), and that closing a database
// closes its stream.
func TestCommitStreams(t *testing.T) {
	b := newBackend(t, libsqlserver.Start(t))
	store, c := b.objectStoreWith(t, objcentral.StoreConfig{CommitStreams: 1})
	ctx := ctxFor(t)
	first, err := store.Open(ctx, testID("Stream", "a"), newFakeLease(1))
	if err != nil {
		t.Fatal(err)
	}
	mustBatch(t, first, "CREATE TABLE t (v)")
	if n := store.Stats().CommitStreams; n != 1 {
		t.Fatalf("%d commit streams open after a commit, want 1", n)
	}
	before := c.RoundTrips()
	mustBatch(t, first, "INSERT INTO t VALUES (1)")
	if got := c.RoundTrips() - before; got != 1 {
		t.Errorf("a commit on the open stream cost %d round trips, want 1", got)
	}
	second, err := store.Open(ctx, testID("Stream", "b"), newFakeLease(1))
	if err != nil {
		t.Fatal(err)
	}
	mustBatch(t, second, "CREATE TABLE t (v); INSERT INTO t VALUES (2)")
	if n := store.Stats().CommitStreams; n != 1 {
		t.Errorf("%d commit streams open with a limit of 1", n)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if n := store.Stats().CommitStreams; n != 0 {
		t.Errorf("%d commit streams open after the database closed, want 0", n)
	}
	// The second database commits on a stream of its own once one is free.
	mustBatch(t, second, "INSERT INTO t VALUES (3)")
	if n := store.Stats().CommitStreams; n != 1 {
		t.Errorf("%d commit streams open after the slot was freed, want 1", n)
	}
	if rs := mustBatch(t, second, "SELECT count(*) FROM t"); rs[0].Rows[0][0] != int64(2) {
		t.Errorf("rows = %v, want 2", rs[0].Rows)
	}
	second.Close()
}

// TestNewObjectFencedBeforeItsFirstCommit: an object's first holder opens
// it without a round trip and makes its rows with its first commit; a newer holder that opened the object before that commit fences
// it all the same, for writes and, once its lease is not fresh, reads.
func TestNewObjectFencedBeforeItsFirstCommit(t *testing.T) {
	b := newBackend(t, libsqlserver.Start(t))
	firstStore, c := b.objectStore(t)
	store, _ := b.objectStore(t)
	ctx := ctxFor(t)
	id := testID("Fresh", "x")

	// Another object of the same pack sets the pack up.
	for i := 0; ; i++ {
		if other := testID("Fresh", fmt.Sprint("other", i)); firstStore.PackOf(other) == firstStore.PackOf(id) {
			if _, err := firstStore.Open(ctx, other, newFakeLease(1)); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	before := c.RoundTrips()
	l1 := newFakeLease(1)
	first, err := firstStore.Open(ctx, id, l1)
	if err != nil {
		t.Fatal(err)
	}
	if n := c.RoundTrips() - before; n != 0 {
		t.Errorf("opening a new object cost %d round trips to its pack, want none", n)
	}
	cur, err := store.Open(ctx, id, newFakeLease(2))
	if err != nil {
		t.Fatal(err)
	}
	mustBatch(t, cur, "CREATE TABLE t (v)", "INSERT INTO t VALUES ('newer')")
	if _, err := first.Batch(ctx, []worker.D1Query{{SQL: "CREATE TABLE t (v)"}}); !errors.Is(err, objects.ErrFenced) {
		t.Errorf("first write of the older holder: err = %v, want ErrFenced", err)
	}
	first.Close()

	// The same for reads: a first holder whose lease is no longer fresh
	// confirms it, which sets the database up and finds a newer epoch.
	id = testID("Fresh", "y")
	l1 = newFakeLease(1)
	if first, err = firstStore.Open(ctx, id, l1); err != nil {
		t.Fatal(err)
	}
	if cur, err = store.Open(ctx, id, newFakeLease(2)); err != nil {
		t.Fatal(err)
	}
	l1.lose()
	if _, err := first.Batch(ctx, []worker.D1Query{{SQL: "SELECT 1"}}); !errors.Is(err, objects.ErrFenced) {
		t.Errorf("read of the older holder once its lease is not fresh: err = %v, want ErrFenced", err)
	}
	mustBatch(t, cur, "CREATE TABLE t (v)")
}

// TestFirstTenureOfADatabaseThatExists: a first lease (epoch 1) whose
// object turns out to have rows already (made by a fleet whose
// coordination database was replaced) starts its copy empty, as for any
// new object, but its first confirmation finds the rows and fails, writing
// nothing; opened again under the same lease, it syncs what they hold.
func TestFirstTenureOfADatabaseThatExists(t *testing.T) {
	b := newBackend(t, libsqlserver.Start(t))
	earlier, _ := b.objectStore(t)
	store, _ := b.objectStore(t)
	ctx := ctxFor(t)
	id := testID("Existing", "x")

	db, err := earlier.Open(ctx, id, newFakeLease(1))
	if err != nil {
		t.Fatal(err)
	}
	mustBatch(t, db, "CREATE TABLE t (v)", "INSERT INTO t VALUES ('kept')")
	db.Close()

	l := newFakeLease(1)
	db, err = store.Open(ctx, id, l)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Batch(ctx, []worker.D1Query{{SQL: "CREATE TABLE t (v)"}, {SQL: "INSERT INTO t VALUES ('lost')"}}); err == nil {
		t.Fatal("the first write over rows made before the first lease succeeded")
	}
	db.Close()
	db, err = store.Open(ctx, id, l)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := fmt.Sprint(mustBatch(t, db, "SELECT v FROM t")[0].Rows); got != "[[kept]]" {
		t.Fatalf("rows = %s, want [[kept]]", got)
	}
	mustBatch(t, db, "INSERT INTO t VALUES ('more')")
}
