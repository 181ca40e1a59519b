package objtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

func testSQL(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	h.mustCall(h.stub("sql"), func(ctx context.Context, o *probeObject) error {
		s := o.State.Storage
		if _, err := s.Exec(ctx, "CREATE TABLE t (i INTEGER, f REAL, s TEXT, b BLOB, n)"); err != nil {
			return err
		}
		c, err := s.Exec(ctx, "INSERT INTO t VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)",
			1, 1.5, "a", []byte{1, 2}, nil,
			int64(2), float32(2.5), "b", []byte{3}, true)
		if err != nil {
			return err
		}
		if got := c.RowsWritten(); got != 2 {
			t.Errorf("insert RowsWritten = %d, want 2", got)
		}
		if len(c.Columns()) != 0 || c.Next() {
			t.Errorf("insert returned columns %v or rows", c.Columns())
		}

		c, err = s.Exec(ctx, "SELECT i, f, s, b, n FROM t ORDER BY i")
		if err != nil {
			return err
		}
		if got, want := c.Columns(), []string{"i", "f", "s", "b", "n"}; !reflect.DeepEqual(got, want) {
			t.Errorf("Columns = %v, want %v", got, want)
		}
		if c.RowsRead() < 2 {
			t.Errorf("select RowsRead = %d, want >= 2", c.RowsRead())
		}
		if c.RowsWritten() != 0 {
			t.Errorf("select RowsWritten = %d, want 0", c.RowsWritten())
		}
		if !c.Next() {
			return errors.New("select returned no rows")
		}
		if got, want := c.Row(), []any{int64(1), 1.5, "a", []byte{1, 2}, nil}; !reflect.DeepEqual(got, want) {
			t.Errorf("row 1 = %#v, want %#v", got, want)
		}
		rest := c.All()
		if len(rest) != 1 {
			return fmt.Errorf("All after Next returned %d rows, want 1", len(rest))
		}
		want := map[string]any{"i": int64(2), "f": 2.5, "s": "b", "b": []byte{3}, "n": int64(1)}
		if !reflect.DeepEqual(rest[0], want) {
			t.Errorf("row 2 = %#v, want %#v", rest[0], want)
		}
		if c.Next() || len(c.Raw()) != 0 {
			t.Error("cursor not exhausted after All")
		}

		c, err = s.Exec(ctx, "SELECT s FROM t WHERE i = ?", 2)
		if err != nil {
			return err
		}
		row, err := c.One()
		if err != nil || row["s"] != "b" {
			t.Errorf("One = %v, %v; want s=b", row, err)
		}
		c, _ = s.Exec(ctx, "SELECT s FROM t")
		if _, err := c.One(); !errors.Is(err, worker.ErrNotOneRow) {
			t.Errorf("One over 2 rows: err = %v, want ErrNotOneRow", err)
		}
		c, _ = s.Exec(ctx, "SELECT s FROM t WHERE i = 99")
		if _, err := c.One(); !errors.Is(err, worker.ErrNotOneRow) {
			t.Errorf("One over 0 rows: err = %v, want ErrNotOneRow", err)
		}
		raw, _ := s.Exec(ctx, "SELECT b FROM t ORDER BY i")
		if got := raw.Raw(); len(got) != 2 || !bytes.Equal(got[1][0].([]byte), []byte{3}) {
			t.Errorf("Raw = %#v", got)
		}

		c, err = s.Exec(ctx, "UPDATE t SET s = 'z'")
		if err != nil {
			return err
		}
		if c.RowsWritten() != 2 {
			t.Errorf("update RowsWritten = %d, want 2", c.RowsWritten())
		}
		return nil
	})
}

func testSQLErrors(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	h.mustCall(h.stub("sqlerr"), func(ctx context.Context, o *probeObject) error {
		s := o.State.Storage
		if _, err := s.Exec(ctx, "SELEKT 1"); err == nil {
			t.Error("bad SQL succeeded")
		}
		if _, err := s.Exec(ctx, "SELECT * FROM missing"); err == nil {
			t.Error("query of a missing table succeeded")
		}
		for _, q := range []string{"BEGIN", "  commit", "ROLLBACK", "SAVEPOINT x"} {
			if _, err := s.Exec(ctx, q); !errors.Is(err, worker.ErrTransactionStatement) {
				t.Errorf("Exec(%q) err = %v, want ErrTransactionStatement", q, err)
			}
		}
		if _, err := s.Exec(ctx, "SELECT ?", struct{}{}); !errors.Is(err, worker.ErrD1BindType) {
			t.Errorf("unsupported argument: err = %v, want ErrD1BindType", err)
		}
		// A failed statement leaves the storage usable.
		c, err := s.Exec(ctx, "SELECT 1 AS one")
		if err != nil {
			return err
		}
		if row, err := c.One(); err != nil || row["one"] != int64(1) {
			t.Errorf("SELECT 1 = %v, %v", row, err)
		}
		return nil
	})
}

func testTransaction(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	errBoom := errors.New("boom")
	h.mustCall(h.stub("tx"), func(ctx context.Context, o *probeObject) error {
		s := o.State.Storage
		if _, err := s.Exec(ctx, "CREATE TABLE t (v INTEGER)"); err != nil {
			return err
		}
		err := s.Transaction(ctx, func(tx *worker.StorageTx) error {
			if _, err := tx.Exec(ctx, "INSERT INTO t VALUES (1)"); err != nil {
				return err
			}
			if _, err := s.Exec(ctx, "SELECT 1"); !errors.Is(err, worker.ErrInTransaction) {
				t.Errorf("Storage.Exec inside a transaction: err = %v, want ErrInTransaction", err)
			}
			c, err := tx.Exec(ctx, "SELECT count(*) AS n FROM t")
			if err != nil {
				return err
			}
			if row, _ := c.One(); row["n"] != int64(1) {
				t.Errorf("transaction does not see its own write: %v", row)
			}
			return tx.Put(ctx, "k", []byte("committed"))
		})
		if err != nil {
			return fmt.Errorf("commit: %w", err)
		}

		err = s.Transaction(ctx, func(tx *worker.StorageTx) error {
			if _, err := tx.Exec(ctx, "INSERT INTO t VALUES (2)"); err != nil {
				return err
			}
			if err := tx.Put(ctx, "k", []byte("rolled back")); err != nil {
				return err
			}
			return errBoom
		})
		if !errors.Is(err, errBoom) {
			t.Errorf("Transaction returned %v, want the callback's error", err)
		}

		func() {
			defer func() {
				if recover() == nil {
					t.Error("panic in the callback was not propagated")
				}
			}()
			s.Transaction(ctx, func(tx *worker.StorageTx) error {
				tx.Exec(ctx, "INSERT INTO t VALUES (3)")
				panic("boom")
			})
		}()

		c, err := s.Exec(ctx, "SELECT v FROM t ORDER BY v")
		if err != nil {
			return err
		}
		if got := c.Raw(); !reflect.DeepEqual(got, [][]any{{int64(1)}}) {
			t.Errorf("rows after commit, rollback and panic = %v, want [[1]]", got)
		}
		v, err := s.Get(ctx, "k")
		if err != nil || string(v) != "committed" {
			t.Errorf("KV after rollback = %q, %v; want committed", v, err)
		}
		return nil
	})
}
