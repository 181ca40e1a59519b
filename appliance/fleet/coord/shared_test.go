package coord

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/test/libsqlserver"
)

// TestSharedCommitsShareRoundTrips has many goroutines create keys at
// once with Shared operations: each must commit, with a versionstamp of
// its own, in fewer round trips than operations.
func TestSharedCommitsShareRoundTrips(t *testing.T) {
	const n = 64
	srv := startServer(t)
	var trips atomic.Int64
	ns := libsqlserver.Namespace("coord")
	ctx := ctxFor(t)
	if err := srv.admin.Create(ctx, ns); err != nil {
		t.Fatal(err)
	}
	c, err := hranaclient.New(hranaclient.Config{URL: srv.srv.URL, AuthToken: srv.srv.AuthToken, Namespace: ns,
		OnRoundTrip: func() { trips.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	s := openWith(t, c, Options{SweepInterval: -1})
	trips.Store(0)
	var wg sync.WaitGroup
	vs := make([]Versionstamp, n)
	errs := make([]error, n)
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			k := tuple.Key{"shared", int64(i)}
			res, err := s.Atomic().Shared().Check(k, 0).Set(k, []byte("v"), 0).Commit(ctx)
			if err == nil && !res.OK {
				err = fmt.Errorf("check failed")
			}
			vs[i], errs[i] = res.Versionstamp, err
		})
	}
	close(start)
	wg.Wait()
	got := trips.Load()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	seen := map[Versionstamp]bool{}
	for i, v := range vs {
		if seen[v] {
			t.Errorf("versionstamp %d given twice", v)
		}
		seen[v] = true
		if e := mustGet(t, s, []any{"shared", int64(i)}); e.Versionstamp != v {
			t.Errorf("key %d has versionstamp %d, its commit said %d", i, e.Versionstamp, v)
		}
	}
	if got >= n {
		t.Errorf("%d operations took %d round trips", n, got)
	} else {
		t.Logf("%d operations took %d round trips", n, got)
	}
}

// TestOperationsOfOneTransactionApplyInOrder commits operations in one
// transaction, as a batch of Shared operations is: each sees the writes of
// those before it, an operation whose checks fail reads its keys and
// writes nothing, and the others commit.
func TestOperationsOfOneTransactionApplyInOrder(t *testing.T) {
	srv := startServer(t)
	s := srv.open(t, Options{SweepInterval: -1})
	ctx := ctxFor(t)
	a, b := tuple.Key{"a"}, tuple.Key{"b"}
	first := s.Atomic().Check(a, 0).Set(a, []byte("1"), 0)
	// Sees first's write: its check of a as absent fails.
	second := s.Atomic().Check(a, 0).Set(b, []byte("2"), 0).ReadOnFail(a, b)
	third := s.Atomic().Check(b, 0).Set(b, []byte("3"), 0)
	out, errs := s.commit(ctx, []*Atomic{first, second, third})
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if !out[0].OK || out[1].OK || !out[2].OK {
		t.Fatalf("outcomes %+v, want committed, failed, committed", out)
	}
	if out[2].Versionstamp <= out[0].Versionstamp {
		t.Errorf("versionstamps %d then %d, want increasing", out[0].Versionstamp, out[2].Versionstamp)
	}
	if r := out[1].Read; len(r) != 2 || string(r[0].Value) != "1" || r[1].Exists() {
		t.Errorf("the failed operation read %+v, want a as first wrote it and b absent", r)
	}
	if e := mustGet(t, s, []any{"b"}); string(e.Value) != "3" || e.Versionstamp != out[2].Versionstamp {
		t.Errorf("b = %q at %d, want the third operation's", e.Value, e.Versionstamp)
	}
}

// TestAFailingOperationHoldsNoOtherBack has an operation whose Sum meets
// a value that is not a counter share a transaction with sound ones: it
// fails with ErrNotU64 and writes nothing (its versionstamp is not used
// up either), and the others commit in the same transaction.
func TestAFailingOperationHoldsNoOtherBack(t *testing.T) {
	srv := startServer(t)
	s := srv.open(t, Options{SweepInterval: -1})
	ctx := ctxFor(t)
	text, c1, c2 := tuple.Key{"text"}, tuple.Key{"c1"}, tuple.Key{"c2"}
	mustCommit(t, s.Atomic().Set(text, []byte("not a counter"), 0))
	ops := []*Atomic{
		s.Atomic().Sum(c1, 1),
		s.Atomic().Sum(c1, 1).Sum(text, 1),
		s.Atomic().Sum(c2, 5),
	}
	out, errs := s.commit(ctx, ops)
	if errs[0] != nil || errs[2] != nil || !out[0].OK || !out[2].OK {
		t.Fatalf("sound operations: %+v, %v", out, errs)
	}
	if !errors.Is(errs[1], ErrNotU64) {
		t.Fatalf("failing operation: %v, want ErrNotU64", errs[1])
	}
	if out[2].Versionstamp != out[0].Versionstamp+1 {
		t.Errorf("versionstamps %d and %d, want consecutive: the failed operation's was undone", out[0].Versionstamp, out[2].Versionstamp)
	}
	if n, _ := mustGet(t, s, []any{"c1"}).Uint64(); n != 1 {
		t.Errorf("c1 = %d, want 1: the failing operation's Sum must not apply", n)
	}
	if n, _ := mustGet(t, s, []any{"c2"}).Uint64(); n != 5 {
		t.Errorf("c2 = %d, want 5", n)
	}
}

// TestAWholeTransactionRollbackOnTheServer has a trigger roll back the
// whole transaction of a batch of operations in the middle (RAISE
// (ROLLBACK) on one operation's write): that operation fails, nothing
// after it runs outside the transaction, and the others are committed
// again alone, each once.
func TestAWholeTransactionRollbackOnTheServer(t *testing.T) {
	srv := startServer(t)
	s := srv.open(t, Options{SweepInterval: -1})
	ctx := ctxFor(t)
	if _, err := s.Client().Execute(ctx, hrana.NewStmt(`CREATE TRIGGER boom BEFORE INSERT ON coord_kv
		WHEN CAST(new.value AS TEXT) = 'boom' BEGIN SELECT RAISE(ROLLBACK, 'boom'); END`)); err != nil {
		t.Fatal(err)
	}
	a, b, c1, c2, x := tuple.Key{"a"}, tuple.Key{"b"}, tuple.Key{"c1"}, tuple.Key{"c2"}, tuple.Key{"x"}
	out, errs := s.commitShared(ctx, []*Atomic{
		s.Atomic().Sum(c1, 1),
		s.Atomic().Set(a, []byte("1"), 0),
		s.Atomic().Check(a, 0).Set(b, []byte("2"), 0).ReadOnFail(a),
		s.Atomic().Set(x, []byte("boom"), 0),
		s.Atomic().Sum(c2, 1),
	})
	for _, i := range []int{0, 1, 4} {
		if errs[i] != nil || !out[i].OK {
			t.Errorf("operation %d: %+v, %v; want committed", i, out[i], errs[i])
		}
	}
	if errs[2] != nil || out[2].OK || len(out[2].Read) != 1 || string(out[2].Read[0].Value) != "1" {
		t.Errorf("operation 2: %+v, %v; want its check failed on a as committed", out[2], errs[2])
	}
	if errs[3] == nil || !strings.Contains(errs[3].Error(), "boom") {
		t.Errorf("operation 3: %v; want the trigger's error", errs[3])
	}
	for _, k := range []string{"c1", "c2"} {
		if n, _ := mustGet(t, s, []any{k}).Uint64(); n != 1 {
			t.Errorf("%s = %d, want 1: committed once", k, n)
		}
	}
	if mustGet(t, s, []any{"b"}).Exists() || mustGet(t, s, []any{"x"}).Exists() {
		t.Error("b or x was written")
	}
}

// TestAFailedCheckAloneKeepsItsReadWhenTheTransactionRollsBack: a lone
// operation whose check fails and whose transaction then rolls back
// reports the failed check and what it read, as committed before.
func TestAFailedCheckAloneKeepsItsReadWhenTheTransactionRollsBack(t *testing.T) {
	srv := startServer(t)
	s := srv.open(t, Options{SweepInterval: -1})
	ctx := ctxFor(t)
	a := tuple.Key{"a"}
	mustCommit(t, s.Atomic().Set(a, []byte("1"), 0))
	if _, err := s.Client().Execute(ctx, hrana.NewStmt(`CREATE TRIGGER boom BEFORE UPDATE OF check_ok ON coord_meta
		WHEN new.check_ok IS NULL BEGIN SELECT RAISE(ROLLBACK, 'boom'); END`)); err != nil {
		t.Fatal(err)
	}
	res, err := s.Atomic().Check(a, 0).Set(a, []byte("2"), 0).ReadOnFail(a).Commit(ctx)
	if err != nil || res.OK || len(res.Read) != 1 || string(res.Read[0].Value) != "1" {
		t.Fatalf("%+v, %v; want the failed check with a = 1", res, err)
	}
}
