package objtest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

func testKVMultiKey(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	h.mustCall(h.stub("kv-many"), func(ctx context.Context, o *probeObject) error {
		s := o.State.Storage
		entries := map[string][]byte{}
		var keys []string
		for i := range worker.MaxStorageKeysPerCall {
			k := fmt.Sprintf("k%03d", i)
			entries[k] = []byte("v" + k)
			keys = append(keys, k)
		}
		if err := s.PutMany(ctx, entries); err != nil {
			return fmt.Errorf("PutMany of %d: %w", len(entries), err)
		}
		got, err := s.GetMany(ctx, append([]string{"missing"}, keys[:worker.MaxStorageKeysPerCall-1]...))
		if err != nil {
			return err
		}
		if len(got) != worker.MaxStorageKeysPerCall-1 || string(got["k007"]) != "vk007" {
			t.Errorf("GetMany: %d entries, k007 = %q; want %d and vk007", len(got), got["k007"], worker.MaxStorageKeysPerCall-1)
		}
		if _, ok := got["missing"]; ok {
			t.Error("GetMany returned a missing key")
		}
		n, err := s.DeleteMany(ctx, []string{"k000", "k001", "missing"})
		if err != nil || n != 2 {
			t.Errorf("DeleteMany = %d, %v; want 2", n, err)
		}
		if _, err := s.Get(ctx, "k001"); !errors.Is(err, worker.ErrNotFound) {
			t.Errorf("Get after DeleteMany: %v, want ErrNotFound", err)
		}
		// Over the limit: a clear error, nothing done.
		over := append(keys, "k999")
		if _, err := s.GetMany(ctx, over); !errors.Is(err, worker.ErrStorageTooManyKeys) || !strings.Contains(err.Error(), "129 keys") {
			t.Errorf("GetMany of 129: %v, want ErrStorageTooManyKeys naming the count", err)
		}
		if _, err := s.DeleteMany(ctx, over); !errors.Is(err, worker.ErrStorageTooManyKeys) {
			t.Errorf("DeleteMany of 129: %v, want ErrStorageTooManyKeys", err)
		}
		entries["k999"] = []byte("x")
		if err := s.PutMany(ctx, entries); !errors.Is(err, worker.ErrStorageTooManyKeys) {
			t.Errorf("PutMany of 129: %v, want ErrStorageTooManyKeys", err)
		}
		if _, err := s.Get(ctx, "k999"); !errors.Is(err, worker.ErrNotFound) {
			t.Errorf("a refused PutMany wrote: %v", err)
		}
		// PutMany is atomic: one oversized value, nothing stored.
		err = s.PutMany(ctx, map[string][]byte{"a1": []byte("x"), "a2": make([]byte, worker.MaxStorageValueSize+1)})
		if !errors.Is(err, worker.ErrStorageValueTooLarge) {
			t.Errorf("PutMany with a large value: %v, want ErrStorageValueTooLarge", err)
		}
		if _, err := s.Get(ctx, "a1"); !errors.Is(err, worker.ErrNotFound) {
			t.Errorf("a refused PutMany stored a1: %v", err)
		}
		// Inside a transaction, rolled back with it.
		rollback := errors.New("rollback")
		err = s.Transaction(ctx, func(tx *worker.StorageTx) error {
			if err := tx.PutMany(ctx, map[string][]byte{"t1": []byte("1"), "t2": []byte("2")}); err != nil {
				return err
			}
			if m, err := tx.GetMany(ctx, []string{"t1", "t2"}); err != nil || len(m) != 2 {
				t.Errorf("tx.GetMany = %v, %v", m, err)
			}
			if n, err := tx.DeleteMany(ctx, []string{"t1"}); err != nil || n != 1 {
				t.Errorf("tx.DeleteMany = %d, %v", n, err)
			}
			return rollback
		})
		if !errors.Is(err, rollback) {
			return err
		}
		if m, err := s.GetMany(ctx, []string{"t1", "t2"}); err != nil || len(m) != 0 {
			t.Errorf("rolled-back PutMany left %v, %v", m, err)
		}
		return nil
	})
}

func testKVStartAfter(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	h.mustCall(h.stub("kv-after"), func(ctx context.Context, o *probeObject) error {
		s := o.State.Storage
		for _, k := range []string{"a", "b", "c", "d", "e"} {
			if err := s.Put(ctx, k, []byte(k)); err != nil {
				return err
			}
		}
		// Paging by StartAfter visits every key once.
		var pages [][]string
		after := ""
		for range 10 {
			page, err := s.List(ctx, &worker.StorageListOptions{StartAfter: after, Limit: 2})
			if err != nil {
				return err
			}
			if len(page) == 0 {
				break
			}
			pages = append(pages, keys(page))
			after = page[len(page)-1].Key
		}
		if want := [][]string{{"a", "b"}, {"c", "d"}, {"e"}}; !reflect.DeepEqual(pages, want) {
			t.Errorf("pages by StartAfter = %v, want %v", pages, want)
		}
		got, err := s.List(ctx, &worker.StorageListOptions{StartAfter: "b", End: "e"})
		if err != nil || !reflect.DeepEqual(keys(got), []string{"c", "d"}) {
			t.Errorf("List(StartAfter b, End e) = %v, %v; want [c d]", keys(got), err)
		}
		got, err = s.List(ctx, &worker.StorageListOptions{StartAfter: "c", Reverse: true})
		if err != nil || !reflect.DeepEqual(keys(got), []string{"e", "d"}) {
			t.Errorf("List(StartAfter c, Reverse) = %v, %v; want [e d]", keys(got), err)
		}
		if _, err := s.List(ctx, &worker.StorageListOptions{StartAfter: "a", Start: "b"}); !errors.Is(err, worker.ErrStorageListOptions) {
			t.Errorf("List(StartAfter and Start) = %v, want ErrStorageListOptions", err)
		}
		return nil
	})
}

func testStorageLimits(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	h.mustCall(h.stub("limits"), func(ctx context.Context, o *probeObject) error {
		s := o.State.Storage
		if err := s.Put(ctx, "max", make([]byte, worker.MaxStorageValueSize)); err != nil {
			t.Errorf("Put of exactly 128 KiB: %v", err)
		}
		err := s.Put(ctx, "over", make([]byte, worker.MaxStorageValueSize+1))
		if !errors.Is(err, worker.ErrStorageValueTooLarge) || !strings.Contains(err.Error(), "131073 bytes") {
			t.Errorf("Put of 128 KiB + 1: %v, want ErrStorageValueTooLarge naming the size", err)
		}
		if _, err := s.Exec(ctx, "CREATE TABLE blobs (b BLOB)"); err != nil {
			return err
		}
		if _, err := s.Exec(ctx, "INSERT INTO blobs VALUES (?)", make([]byte, worker.MaxSQLValueSize)); err != nil {
			t.Errorf("SQL blob of exactly 2 MB: %v", err)
		}
		_, err = s.Exec(ctx, "INSERT INTO blobs VALUES (?)", strings.Repeat("x", worker.MaxSQLValueSize+1))
		if !errors.Is(err, worker.ErrSQLValueTooLarge) || !strings.Contains(err.Error(), "argument 1") {
			t.Errorf("SQL string of 2 MB + 1: %v, want ErrSQLValueTooLarge naming the argument", err)
		}
		err = s.Transaction(ctx, func(tx *worker.StorageTx) error {
			_, err := tx.Exec(ctx, "INSERT INTO blobs VALUES (?)", make([]byte, worker.MaxSQLValueSize+1))
			return err
		})
		if !errors.Is(err, worker.ErrSQLValueTooLarge) {
			t.Errorf("SQL blob of 2 MB + 1 in a transaction: %v, want ErrSQLValueTooLarge", err)
		}
		c, err := s.Exec(ctx, "SELECT count(*) AS n FROM blobs")
		if err != nil {
			return err
		}
		if row, _ := c.One(); row["n"] != int64(1) {
			t.Errorf("blobs holds %v rows, want 1", row["n"])
		}
		return nil
	})
}

func testDatabaseSize(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	h.mustCall(h.stub("size"), func(ctx context.Context, o *probeObject) error {
		s := o.State.Storage
		before, err := s.DatabaseSize(ctx)
		if err != nil {
			return err
		}
		if _, err := s.Exec(ctx, "CREATE TABLE big (b BLOB)"); err != nil {
			return err
		}
		for range 4 {
			if _, err := s.Exec(ctx, "INSERT INTO big VALUES (?)", make([]byte, 256<<10)); err != nil {
				return err
			}
		}
		after, err := s.DatabaseSize(ctx)
		if err != nil {
			return err
		}
		if before < 0 || after < before+1<<20 {
			t.Errorf("DatabaseSize = %d before and %d after writing 1 MiB; want it to grow by at least 1 MiB", before, after)
		}
		return nil
	})
}
