package objtest

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

func keys(es []worker.StorageEntry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.Key)
	}
	return out
}

func testKV(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	h.mustCall(h.stub("kv"), func(ctx context.Context, o *probeObject) error {
		s := o.State.Storage
		if _, err := s.Get(ctx, "missing"); !errors.Is(err, worker.ErrNotFound) {
			t.Errorf("Get(missing) err = %v, want ErrNotFound", err)
		}
		for _, k := range []string{"b", "a", "p/2", "p/1", "p/3", "q"} {
			if err := s.Put(ctx, k, []byte("v"+k)); err != nil {
				return err
			}
		}
		if err := s.Put(ctx, "a", []byte("again")); err != nil {
			return err
		}
		if v, err := s.Get(ctx, "a"); err != nil || string(v) != "again" {
			t.Errorf("Get(a) = %q, %v; want again", v, err)
		}
		for _, tc := range []struct {
			opts *worker.StorageListOptions
			want []string
		}{
			{nil, []string{"a", "b", "p/1", "p/2", "p/3", "q"}},
			{&worker.StorageListOptions{Prefix: "p/"}, []string{"p/1", "p/2", "p/3"}},
			{&worker.StorageListOptions{Prefix: "p/", Reverse: true, Limit: 2}, []string{"p/3", "p/2"}},
			{&worker.StorageListOptions{Start: "b", End: "p/3"}, []string{"b", "p/1", "p/2"}},
			{&worker.StorageListOptions{Limit: 1}, []string{"a"}},
		} {
			got, err := s.List(ctx, tc.opts)
			if err != nil {
				return err
			}
			if !reflect.DeepEqual(keys(got), tc.want) {
				t.Errorf("List(%+v) = %v, want %v", tc.opts, keys(got), tc.want)
			}
		}
		all, _ := s.List(ctx, &worker.StorageListOptions{Prefix: "q"})
		if len(all) != 1 || string(all[0].Value) != "vq" {
			t.Errorf("List values = %+v", all)
		}
		if ok, err := s.Delete(ctx, "b"); !ok || err != nil {
			t.Errorf("Delete(b) = %v, %v; want true", ok, err)
		}
		if ok, err := s.Delete(ctx, "b"); ok || err != nil {
			t.Errorf("second Delete(b) = %v, %v; want false", ok, err)
		}
		if err := s.Put(ctx, "", []byte("x")); !errors.Is(err, worker.ErrStorageKey) {
			t.Errorf("Put with empty key: err = %v, want ErrStorageKey", err)
		}
		if err := s.Put(ctx, strings.Repeat("k", worker.MaxStorageKeySize+1), nil); !errors.Is(err, worker.ErrStorageKey) {
			t.Errorf("Put with long key: err = %v, want ErrStorageKey", err)
		}
		// The KV API lives in the object's SQL database.
		c, err := s.Exec(ctx, "SELECT count(*) AS n FROM _dwk_kv")
		if err != nil {
			return err
		}
		if row, _ := c.One(); row["n"] != int64(5) {
			t.Errorf("_dwk_kv holds %v rows, want 5", row["n"])
		}
		return nil
	})
}

func testIsolation(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	for _, name := range []string{"one", "two"} {
		h.mustCall(h.stub(name), func(ctx context.Context, o *probeObject) error {
			return o.State.Storage.Put(ctx, "who", []byte(name))
		})
	}
	other := h.other.Get(h.other.IDFromName("one"))
	h.mustCall(other, func(ctx context.Context, o *probeObject) error {
		if _, err := o.State.Storage.Get(ctx, "who"); !errors.Is(err, worker.ErrNotFound) {
			t.Errorf("object of another class sees data: err = %v", err)
		}
		return nil
	})
	for _, name := range []string{"one", "two"} {
		h.mustCall(h.stub(name), func(ctx context.Context, o *probeObject) error {
			if v, err := o.State.Storage.Get(ctx, "who"); err != nil || string(v) != name {
				t.Errorf("object %s reads %q, %v", name, v, err)
			}
			if got := o.State.ID.Name(); got != name {
				t.Errorf("State.ID.Name() = %q, want %q", got, name)
			}
			return nil
		})
	}
}

func testDeleteAll(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	fired := make(chan string, 10)
	h.probe.setAlarm(func(ctx context.Context, o *probeObject, _ worker.AlarmInfo) error {
		fired <- o.State.ID.String()
		return nil
	})
	doomed, witness := h.stub("doomed"), h.stub("witness")
	h.mustCall(doomed, func(ctx context.Context, o *probeObject) error {
		s := o.State.Storage
		if _, err := s.Exec(ctx, "CREATE TABLE t (v)"); err != nil {
			return err
		}
		if err := s.Put(ctx, "k", []byte("v")); err != nil {
			return err
		}
		if err := s.SetAlarm(ctx, nowPlus(150)); err != nil {
			return err
		}
		if err := s.DeleteAll(ctx); err != nil {
			return err
		}
		if _, err := s.Get(ctx, "k"); !errors.Is(err, worker.ErrNotFound) {
			t.Errorf("KV survived DeleteAll: err = %v", err)
		}
		if _, err := s.Exec(ctx, "SELECT * FROM t"); err == nil {
			t.Error("table survived DeleteAll")
		}
		if at, err := s.GetAlarm(ctx); err != nil || !at.IsZero() {
			t.Errorf("alarm survived DeleteAll: %v, %v", at, err)
		}
		// Storage works afterwards.
		return s.Put(ctx, "after", []byte("ok"))
	})
	// A later alarm on another object proves the deleted one would have
	// fired by now.
	h.mustCall(witness, func(ctx context.Context, o *probeObject) error {
		return o.State.Storage.SetAlarm(ctx, nowPlus(300))
	})
	select {
	case id := <-fired:
		if id != witness.ID().String() {
			t.Fatalf("alarm of the object whose storage was deleted fired")
		}
	case <-timeout(10):
		t.Fatal("witness alarm did not fire")
	}
}
