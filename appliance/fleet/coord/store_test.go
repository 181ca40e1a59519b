package coord

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/test/libsqlserver"
	"github.com/dwk/fleet/test/wait"
)

func TestStore(t *testing.T) {
	srv := startServer(t)
	tests := []struct {
		name string
		fn   func(t *testing.T, srv *server)
	}{
		{"GetSetDelete", testGetSetDelete},
		{"Versionstamps", testVersionstamps},
		{"Checks", testChecks},
		{"OneRoundTrip", testOneRoundTrip},
		{"Sum", testSum},
		{"TTL", testTTL},
		{"Sweeper", testSweeper},
		{"GetMany", testGetMany},
		{"Watch", testWatch},
		{"Now", testNow},
		{"InvalidInput", testInvalidInput},
		{"SchemaTooNew", testSchemaTooNew},
		{"Reopen", testReopen},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.fn(t, srv)
		})
	}
}

func testGetSetDelete(t *testing.T, srv *server) {
	s := srv.open(t, Options{})
	k := tuple.Key{"a", int64(1)}
	if e := mustGet(t, s, k); e.Exists() || e.Value != nil || e.Versionstamp != 0 || !tuple.Equal(e.Key, k) {
		t.Fatalf("Get(absent) = %+v", e)
	}
	vs := mustCommit(t, s.Atomic().Set(k, []byte("v1"), 0))
	e := mustGet(t, s, k)
	if string(e.Value) != "v1" || e.Versionstamp != vs || e.U64 || !e.Expires.IsZero() {
		t.Fatalf("Get = %+v, want v1 at %v", e, vs)
	}
	mustCommit(t, s.Atomic().Set(k, nil, 0))
	if e := mustGet(t, s, k); !e.Exists() || e.Value == nil || len(e.Value) != 0 {
		t.Errorf("empty value: %+v, want a present empty value", e)
	}
	mustCommit(t, s.Atomic().Delete(k))
	if e := mustGet(t, s, k); e.Exists() {
		t.Errorf("after Delete: %+v", e)
	}
	mustCommit(t, s.Atomic().Delete(tuple.Key{"never"}))
}

func testVersionstamps(t *testing.T, srv *server) {
	s := srv.open(t, Options{})
	var last Versionstamp
	for i := range 5 {
		vs := mustCommit(t, s.Atomic().Set(tuple.Key{"k", int64(i)}, []byte("x"), 0).Set(tuple.Key{"other"}, []byte("y"), 0))
		if vs <= last {
			t.Fatalf("commit %d: versionstamp %v after %v", i, vs, last)
		}
		last = vs
		if e := mustGet(t, s, tuple.Key{"other"}); e.Versionstamp != vs {
			t.Errorf("key written by commit %v has versionstamp %v", vs, e.Versionstamp)
		}
	}
	if got := Versionstamp(0x0102).String(); got != "00000000000001020000" {
		t.Errorf("String = %s", got)
	}
}

func testChecks(t *testing.T, srv *server) {
	s := srv.open(t, Options{})
	ctx := ctxFor(t)
	a, b := tuple.Key{"a"}, tuple.Key{"b"}

	res, err := s.Atomic().Check(a, 0).Set(a, []byte("1"), 0).Commit(ctx)
	if err != nil || !res.OK {
		t.Fatalf("check absent on absent key = %+v, %v; want OK", res, err)
	}
	vsA := res.Versionstamp
	res, err = s.Atomic().Check(a, 0).Set(a, []byte("2"), 0).Commit(ctx)
	if err != nil || res.OK || res.Versionstamp != 0 {
		t.Fatalf("check absent on present key = %+v, %v; want not OK", res, err)
	}
	res, err = s.Atomic().Check(a, vsA).Check(b, 0).Set(a, []byte("3"), 0).Set(b, []byte("b"), 0).Commit(ctx)
	if err != nil || !res.OK {
		t.Fatalf("matching checks = %+v, %v; want OK", res, err)
	}
	// One stale check among good ones: nothing is written.
	res, err = s.Atomic().Check(b, res.Versionstamp).Check(a, vsA).Set(b, []byte("lost"), 0).Delete(a).Commit(ctx)
	if err != nil || res.OK {
		t.Fatalf("stale check = %+v, %v; want not OK", res, err)
	}
	if e := mustGet(t, s, a); string(e.Value) != "3" {
		t.Errorf("a = %q after a failed atomic, want 3", e.Value)
	}
	if e := mustGet(t, s, b); string(e.Value) != "b" {
		t.Errorf("b = %q after a failed atomic, want b", e.Value)
	}
	// Checks alone, no mutations, still commit.
	if res, err := s.Atomic().Check(tuple.Key{"c"}, 0).Commit(ctx); err != nil || !res.OK {
		t.Errorf("checks only = %+v, %v", res, err)
	}
}

func testOneRoundTrip(t *testing.T, srv *server) {
	s := srv.open(t, Options{})
	ctx := ctxFor(t)
	c := s.Client()
	cost := func(what string, fn func() error) {
		t.Helper()
		before := c.RoundTrips()
		if err := fn(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got := c.RoundTrips() - before; got != 1 {
			t.Errorf("%s cost %d round trips, want exactly 1", what, got)
		}
	}
	k := tuple.Key{"rt"}
	var vs Versionstamp
	cost("Atomic with checks (success)", func() error {
		res, err := s.Atomic().Check(k, 0).Check(tuple.Key{"rt2"}, 0).Set(k, []byte("v"), time.Hour).Sum(tuple.Key{"n"}, 1).Commit(ctx)
		if err == nil && !res.OK {
			err = errors.New("not OK")
		}
		vs = res.Versionstamp
		return err
	})
	cost("Atomic with checks (failed check)", func() error {
		res, err := s.Atomic().Check(k, vs+100).Set(k, []byte("w"), 0).Commit(ctx)
		if err == nil && res.OK {
			err = errors.New("OK despite a stale check")
		}
		return err
	})
	cost("Get", func() error { _, err := s.Get(ctx, k); return err })
	cost("GetMany", func() error { _, err := s.GetMany(ctx, []tuple.Key{k, {"n"}, {"x"}}); return err })
	cost("List", func() error { _, err := s.List(ctx, Selector{}, ListOptions{}); return err })
	cost("Now", func() error { _, err := s.Now(ctx); return err })
}

func testSum(t *testing.T, srv *server) {
	s := srv.open(t, Options{})
	ctx := ctxFor(t)
	n := tuple.Key{"n"}
	u64 := func() uint64 {
		t.Helper()
		e := mustGet(t, s, n)
		v, ok := e.Uint64()
		if !ok {
			t.Fatalf("entry %+v is not a u64", e)
		}
		return v
	}
	mustCommit(t, s.Atomic().Sum(n, 5))
	mustCommit(t, s.Atomic().Sum(n, 7).Sum(n, 1))
	if got := u64(); got != 13 {
		t.Errorf("sum = %d, want 13", got)
	}
	if e := mustGet(t, s, n); !bytes.Equal(e.Value, binary.LittleEndian.AppendUint64(nil, 13)) {
		t.Errorf("u64 value bytes = %x, want little-endian 13", e.Value)
	}
	// Wrap around both int64 and uint64 boundaries.
	mustCommit(t, s.Atomic().SetU64(n, math.MaxInt64, 0))
	mustCommit(t, s.Atomic().Sum(n, 1))
	if got := u64(); got != 1<<63 {
		t.Errorf("MaxInt64+1 = %d, want %d", got, uint64(1)<<63)
	}
	mustCommit(t, s.Atomic().Sum(n, math.MaxUint64)) // -1
	if got := u64(); got != math.MaxInt64 {
		t.Errorf("2^63 - 1 = %d, want MaxInt64", got)
	}
	mustCommit(t, s.Atomic().SetU64(n, math.MaxUint64-1, 0))
	mustCommit(t, s.Atomic().Sum(n, 3))
	if got := u64(); got != 1 {
		t.Errorf("MaxUint64-1 + 3 = %d, want 1 (mod 2^64)", got)
	}
	mustCommit(t, s.Atomic().SetU64(n, 1<<63, 0)) // MinInt64 as int64
	mustCommit(t, s.Atomic().Sum(n, 1<<63))
	if got := u64(); got != 0 {
		t.Errorf("2^63 + 2^63 = %d, want 0", got)
	}

	b := tuple.Key{"bytes"}
	mustCommit(t, s.Atomic().Set(b, []byte("not a number"), 0))
	_, err := s.Atomic().Set(tuple.Key{"side effect"}, []byte("x"), 0).Sum(b, 1).Commit(ctx)
	if !errors.Is(err, ErrNotU64) {
		t.Fatalf("Sum on bytes: err = %v, want ErrNotU64", err)
	}
	if e := mustGet(t, s, tuple.Key{"side effect"}); e.Exists() {
		t.Error("a failed atomic wrote its other mutations")
	}
	// Set then Sum in one atomic: the sum sees the set.
	_, err = s.Atomic().Set(n, []byte("x"), 0).Sum(n, 1).Commit(ctx)
	if !errors.Is(err, ErrNotU64) {
		t.Errorf("Set bytes then Sum in one atomic: err = %v, want ErrNotU64", err)
	}
}

func testTTL(t *testing.T, srv *server) {
	s := srv.open(t, Options{SweepInterval: -1})
	ctx := ctxFor(t)
	k := tuple.Key{"ttl"}
	before := time.Now()
	vs := mustCommit(t, s.Atomic().Set(k, []byte("v"), 700*time.Millisecond))
	e := mustGet(t, s, k)
	if !e.Exists() {
		t.Fatal("key with a TTL is absent at once")
	}
	if lo, hi := before.Add(700*time.Millisecond-time.Second), time.Now().Add(700*time.Millisecond+time.Second); e.Expires.Before(lo) || e.Expires.After(hi) {
		t.Errorf("Expires = %s, want about now+700ms", e.Expires)
	}
	wait.For(t, "expired key reads as absent", func() bool { return !mustGet(t, s, k).Exists() })
	if time.Since(before) < 600*time.Millisecond {
		t.Errorf("key expired after %s, before its TTL", time.Since(before))
	}
	if n := rawRows(t, s); n != 1 {
		t.Errorf("raw rows = %d, want the expired row to linger until swept", n)
	}
	page, err := s.List(ctx, Selector{}, ListOptions{})
	if err != nil || len(page.Entries) != 0 {
		t.Errorf("List after expiry = %+v, %v; want empty", page, err)
	}
	// Checks see the expired key as absent.
	if res, err := s.Atomic().Check(k, vs).Commit(ctx); err != nil || res.OK {
		t.Errorf("check with the expired versionstamp = %+v, %v; want not OK", res, err)
	}
	if res, err := s.Atomic().Check(k, 0).Commit(ctx); err != nil || !res.OK {
		t.Errorf("check absent on the expired key = %+v, %v; want OK", res, err)
	}
	// Sum on an expired counter starts from zero and drops the expiry.
	n := tuple.Key{"n"}
	mustCommit(t, s.Atomic().SetU64(n, 100, 300*time.Millisecond))
	wait.For(t, "counter expires", func() bool { return !mustGet(t, s, n).Exists() })
	mustCommit(t, s.Atomic().Sum(n, 2))
	if e := mustGet(t, s, n); !e.Expires.IsZero() {
		t.Errorf("sum on an expired counter kept expiry %s", e.Expires)
	} else if v, _ := e.Uint64(); v != 2 {
		t.Errorf("sum on an expired counter = %d, want 2", v)
	}
	// Set without TTL clears an earlier one.
	mustCommit(t, s.Atomic().Set(k, []byte("v"), 200*time.Millisecond))
	mustCommit(t, s.Atomic().Set(k, []byte("v2"), 0))
	if e := mustGet(t, s, k); !e.Expires.IsZero() {
		t.Errorf("Set without TTL kept expiry %s", e.Expires)
	}
	if n, err := s.Sweep(ctx); err != nil || n != 0 {
		t.Errorf("Sweep = %d, %v; want 0 (the counter was rewritten)", n, err)
	}
}

func testSweeper(t *testing.T, srv *server) {
	s := srv.open(t, Options{SweepInterval: 50 * time.Millisecond})
	for i := range 5 {
		mustCommit(t, s.Atomic().Set(tuple.Key{"exp", int64(i)}, []byte("v"), 100*time.Millisecond))
	}
	mustCommit(t, s.Atomic().Set(tuple.Key{"keep"}, []byte("v"), 0))
	wait.For(t, "sweeper deletes expired rows", func() bool { return rawRows(t, s) == 1 })
	if !mustGet(t, s, tuple.Key{"keep"}).Exists() {
		t.Error("sweeper deleted a key without expiry")
	}
}

func testGetMany(t *testing.T, srv *server) {
	s := srv.open(t, Options{})
	vs := mustCommit(t, s.Atomic().Set(tuple.Key{"a"}, []byte("A"), 0).Set(tuple.Key{"c"}, []byte("C"), 0))
	keys := []tuple.Key{{"c"}, {"b"}, {"a"}, {"c"}}
	got, err := s.GetMany(ctxFor(t), keys)
	if err != nil || len(got) != 4 {
		t.Fatalf("GetMany = %v, %v", got, err)
	}
	want := []string{"C", "", "A", "C"}
	for i, e := range got {
		if string(e.Value) != want[i] || !tuple.Equal(e.Key, keys[i]) || (want[i] != "") != (e.Versionstamp == vs) {
			t.Errorf("GetMany[%d] = %+v, want %q", i, e, want[i])
		}
	}
	if got, err := s.GetMany(ctxFor(t), nil); err != nil || len(got) != 0 {
		t.Errorf("GetMany(nil) = %v, %v", got, err)
	}
}

func testWatch(t *testing.T, srv *server) {
	s := srv.open(t, Options{})
	ctx, cancel := context.WithCancel(ctxFor(t))
	k := tuple.Key{"w"}
	ch, err := s.Watch(ctx, []tuple.Key{k, {"other"}}, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	recv := func(what string) []Entry {
		t.Helper()
		select {
		case es, ok := <-ch:
			if !ok {
				t.Fatalf("%s: channel closed", what)
			}
			return es
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: nothing within 10s", what)
		}
		return nil
	}
	if es := recv("initial"); len(es) != 2 || es[0].Exists() {
		t.Fatalf("initial = %+v", es)
	}
	vs := mustCommit(t, s.Atomic().Set(k, []byte("1"), 0))
	if es := recv("after set"); es[0].Versionstamp != vs || string(es[0].Value) != "1" {
		t.Fatalf("after set = %+v", es)
	}
	mustCommit(t, s.Atomic().Delete(k))
	if es := recv("after delete"); es[0].Exists() {
		t.Fatalf("after delete = %+v", es)
	}
	cancel()
	wait.For(t, "channel closed after cancel", func() bool {
		select {
		case _, ok := <-ch:
			return !ok
		default:
			return false
		}
	})

	// Close ends watches too.
	ch2, err := s.Watch(ctxFor(t), []tuple.Key{k}, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	<-ch2
	cctx, ccancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer ccancel()
	if err := s.Close(cctx); err != nil {
		t.Fatal(err)
	}
	if _, ok := <-ch2; ok {
		t.Error("watch channel open after Close")
	}
	if _, err := s.Watch(ctxFor(t), []tuple.Key{k}, 0); !errors.Is(err, ErrClosed) {
		t.Errorf("Watch after Close: err = %v, want ErrClosed", err)
	}
	if _, err := s.Get(ctxFor(t), k); !errors.Is(err, ErrClosed) {
		t.Errorf("Get after Close: err = %v, want ErrClosed", err)
	}
}

func testNow(t *testing.T, srv *server) {
	s := srv.open(t, Options{})
	before := time.Now()
	now, err := s.Now(ctxFor(t))
	after := time.Now()
	if err != nil {
		t.Fatal(err)
	}
	if now.Before(before.Add(-time.Second)) || now.After(after.Add(time.Second)) {
		t.Errorf("server clock %s, local clock %s..%s", now, before, after)
	}
}

func testInvalidInput(t *testing.T, srv *server) {
	s := srv.open(t, Options{})
	ctx := ctxFor(t)
	tests := []struct {
		name string
		a    *Atomic
		want error
	}{
		{"empty key", s.Atomic().Set(tuple.Key{}, []byte("v"), 0), ErrInvalidKey},
		{"bad part", s.Atomic().Check(tuple.Key{int32(1)}, 0), ErrInvalidKey},
		{"long key", s.Atomic().Delete(tuple.Key{strings.Repeat("k", MaxKeySize)}), ErrInvalidKey},
		{"negative expiry", s.Atomic().Set(tuple.Key{"k"}, nil, -time.Second), ErrInvalidExpiry},
		{"too many checks", manyChecks(s, MaxChecks+1), ErrTooManyOps},
		{"value too large", s.Atomic().Set(tuple.Key{"k"}, make([]byte, MaxValueSize+1), 0), ErrValueTooLarge},
	}
	for _, tt := range tests {
		if _, err := tt.a.Commit(ctx); !errors.Is(err, tt.want) {
			t.Errorf("%s: err = %v, want %v", tt.name, err, tt.want)
		}
	}
	a := s.Atomic().Set(tuple.Key{"k"}, nil, 0)
	mustCommit(t, a)
	if _, err := a.Commit(ctx); !errors.Is(err, ErrCommitted) {
		t.Errorf("second Commit: err = %v, want ErrCommitted", err)
	}
	if _, err := s.Get(ctx, tuple.Key{}); !errors.Is(err, ErrInvalidKey) {
		t.Errorf("Get(()) err = %v", err)
	}
	if _, err := s.GetMany(ctx, make([]tuple.Key, MaxGetMany+1)); !errors.Is(err, ErrTooManyOps) {
		t.Errorf("GetMany(too many) err = %v", err)
	}
}

func manyChecks(s *Store, n int) *Atomic {
	a := s.Atomic()
	for i := range n {
		a.Check(tuple.Key{int64(i)}, 0)
	}
	return a
}

func testSchemaTooNew(t *testing.T, srv *server) {
	c := srv.client(t)
	s := openWith(t, c, Options{})
	if _, err := c.Execute(ctxFor(t), hrana.NewStmt(`UPDATE coord_meta SET schema_version = 99`)); err != nil {
		t.Fatal(err)
	}
	_ = s
	if _, err := Open(ctxFor(t), c, Options{}); !errors.Is(err, ErrSchemaTooNew) {
		t.Errorf("Open on schema 99: err = %v, want ErrSchemaTooNew", err)
	}
}

func testReopen(t *testing.T, srv *server) {
	c := srv.client(t)
	s1 := openWith(t, c, Options{})
	vs := mustCommit(t, s1.Atomic().Set(tuple.Key{"k"}, []byte("v"), 0))
	s2 := openWith(t, c, Options{})
	if e := mustGet(t, s2, tuple.Key{"k"}); e.Versionstamp != vs {
		t.Errorf("after reopen: %+v", e)
	}
	if next := mustCommit(t, s2.Atomic().Set(tuple.Key{"k"}, []byte("w"), 0)); next <= vs {
		t.Errorf("versionstamp went from %v to %v across Open", vs, next)
	}
}

func TestOpenMissingNamespace(t *testing.T) {
	srv := libsqlserver.Start(t)
	c, err := hranaclient.New(hranaclient.Config{URL: srv.URL, AuthToken: srv.AuthToken, Namespace: libsqlserver.Namespace("missing")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctxFor(t), c, Options{}); !errors.Is(err, ErrNoDatabase) {
		t.Errorf("Open: err = %v, want ErrNoDatabase", err)
	}
}

// TestCommitOutcomeUnknown loses the response of a commit that the server
// executed: Commit must say the outcome is unknown, not that it failed.
func TestCommitOutcomeUnknown(t *testing.T) {
	srv := startServer(t)
	direct := srv.client(t)
	target, _ := url.Parse(srv.srv.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	var drop atomic.Bool
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !drop.Load() {
			proxy.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		proxy.ServeHTTP(rec, r) // the server runs the request…
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.(*net.TCPConn).SetLinger(0)
			conn.Close() // …and its answer is lost
		}
	}))
	defer front.Close()
	c, err := hranaclient.New(hranaclient.Config{URL: front.URL, Namespace: direct.Namespace(), AuthToken: srv.srv.AuthToken})
	if err != nil {
		t.Fatal(err)
	}
	s := openWith(t, c, Options{SweepInterval: -1})
	drop.Store(true)
	_, err = s.Atomic().Check(tuple.Key{"k"}, 0).Set(tuple.Key{"k"}, []byte("v"), 0).Commit(ctxFor(t))
	drop.Store(false)
	if !errors.Is(err, ErrOutcomeUnknown) || !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Commit with a lost response: err = %v, want ErrOutcomeUnknown", err)
	}
	if e := mustGet(t, s, tuple.Key{"k"}); string(e.Value) != "v" {
		t.Errorf("the commit did land (%+v), which is why the outcome is unknown, not failed", e)
	}
}
