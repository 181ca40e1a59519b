package libsqlconformance

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"
)

// uniqueName returns a table or namespace name unique to this run, so the
// suite can share an external server with earlier runs.
func uniqueName(prefix string) string {
	return fmt.Sprintf("%s_%d", prefix, time.Now().UnixNano())
}

func mustExec(t *testing.T, db *sql.DB, query string, args ...any) sql.Result {
	t.Helper()
	res, err := db.Exec(query, args...)
	if err != nil {
		t.Fatalf("exec %q: %v", query, err)
	}
	return res
}

func count(t *testing.T, db *sql.DB, table string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

func TestTypeRoundTrip(t *testing.T) {
	tgt := startTarget(t)
	forEachTransport(t, func(t *testing.T, scheme string) {
		db := openGo(t, tgt, scheme)
		table := uniqueName("types_" + scheme)
		mustExec(t, db, "CREATE TABLE "+table+" (id INTEGER PRIMARY KEY, v)")
		allBytes := make([]byte, 256)
		for i := range allBytes {
			allBytes[i] = byte(i)
		}
		values := []any{
			int64(math.MaxInt64), int64(math.MinInt64), int64(0), int64(-1), int64(1 << 53), int64(1<<53 + 1),
			0.1, -1e300, 1.5e-7, math.SmallestNonzeroFloat64, 3.0,
			"", "plain", "héllo wörld ✓ 日本語 🎉", "quote \" backslash \\ newline \n tab \t nul \x00 end",
			allBytes, []byte{},
			nil,
		}
		for i, v := range values {
			mustExec(t, db, "INSERT INTO "+table+" (id, v) VALUES (?, ?)", i, v)
		}
		rows, err := db.Query("SELECT id, v, typeof(v) FROM " + table + " ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		wantType := func(v any) string {
			switch v.(type) {
			case int64:
				return "integer"
			case float64:
				return "real"
			case string:
				return "text"
			case []byte:
				return "blob"
			}
			return "null"
		}
		n := 0
		for rows.Next() {
			var id int
			var got any
			var typ string
			if err := rows.Scan(&id, &got, &typ); err != nil {
				t.Fatal(err)
			}
			want := values[id]
			if typ != wantType(want) {
				t.Errorf("value %d (%#v): stored as %s, want %s", id, want, typ, wantType(want))
			}
			if !sameValue(got, want) {
				t.Errorf("value %d: got %#v (%T), want %#v (%T)", id, got, got, want, want)
			}
			n++
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if n != len(values) {
			t.Fatalf("read %d rows, want %d", n, len(values))
		}
	})
}

func sameValue(got, want any) bool {
	switch w := want.(type) {
	case []byte:
		g, ok := got.([]byte)
		return ok && bytes.Equal(g, w)
	case nil:
		return got == nil
	}
	return got == want
}

func TestInteractiveTransaction(t *testing.T) {
	tgt := startTarget(t)
	forEachTransport(t, func(t *testing.T, scheme string) {
		db := openGo(t, tgt, scheme)
		other := openGo(t, tgt, scheme)
		table := uniqueName("tx_" + scheme)
		mustExec(t, db, "CREATE TABLE "+table+" (v INTEGER)")

		tx, err := db.BeginTx(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			if _, err := tx.Exec("INSERT INTO "+table+" VALUES (?)", i); err != nil {
				t.Fatal(err)
			}
		}
		var inside int64
		if err := tx.QueryRow("SELECT count(*) FROM " + table).Scan(&inside); err != nil || inside != 3 {
			t.Fatalf("count inside transaction = %d, %v; want 3", inside, err)
		}
		if got := count(t, other, table); got != 0 {
			t.Fatalf("another connection sees %d uncommitted rows", got)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if got := count(t, other, table); got != 3 {
			t.Fatalf("after commit another connection sees %d rows, want 3", got)
		}

		tx, err = db.BeginTx(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec("INSERT INTO " + table + " VALUES (99)"); err != nil {
			t.Fatal(err)
		}
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		if got := count(t, other, table); got != 3 {
			t.Fatalf("after rollback %d rows, want 3", got)
		}
	})
}

func TestBatchRollbackOnError(t *testing.T) {
	tgt := startTarget(t)
	forEachTransport(t, func(t *testing.T, scheme string) {
		db := openGo(t, tgt, scheme)
		table := uniqueName("batch_" + scheme)
		mustExec(t, db, "CREATE TABLE "+table+" (v INTEGER PRIMARY KEY)")
		mustExec(t, db, "INSERT INTO "+table+" VALUES (1)")
		if scheme == "http" {
			// libsql-client-go sends a multi-statement string as one batch
			// whose steps depend on the previous one, with a conditional
			// ROLLBACK at the end.
			conn, err := db.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_, err = conn.ExecContext(context.Background(), "BEGIN; INSERT INTO "+table+" VALUES (2); INSERT INTO "+table+" VALUES (1); COMMIT")
			if err == nil || !strings.Contains(err.Error(), "UNIQUE constraint failed") {
				t.Fatalf("batch error = %v, want a UNIQUE constraint failure", err)
			}
			// The same stream must be out of the transaction, its row gone.
			var n int64
			if err := conn.QueryRowContext(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil || n != 1 {
				t.Fatalf("the batch's stream sees %d rows (err %v), want 1: ROLLBACK did not run", n, err)
			}
		} else {
			// Over WebSocket the client sends each statement alone.
			conn, err := db.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			ctx := context.Background()
			if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
				t.Fatal(err)
			}
			if _, err := conn.ExecContext(ctx, "INSERT INTO "+table+" VALUES (2)"); err != nil {
				t.Fatal(err)
			}
			if _, err := conn.ExecContext(ctx, "INSERT INTO "+table+" VALUES (1)"); err == nil || !strings.Contains(err.Error(), "UNIQUE constraint failed") {
				t.Fatalf("duplicate insert error = %v", err)
			}
			if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
				t.Fatal(err)
			}
		}
		if got := count(t, db, table); got != 1 {
			t.Fatalf("after the failed batch %d rows, want 1 (rolled back)", got)
		}
	})
}

func TestErrorsReachTheClient(t *testing.T) {
	tgt := startTarget(t)
	forEachTransport(t, func(t *testing.T, scheme string) {
		db := openGo(t, tgt, scheme)
		table := uniqueName("err_" + scheme)
		mustExec(t, db, "CREATE TABLE "+table+" (v INTEGER NOT NULL)")
		cases := []struct {
			query string
			args  []any
			want  string
		}{
			{"SELEC 1", nil, "syntax error"},
			{"SELECT * FROM no_such_table_" + scheme, nil, "no such table"},
			{"INSERT INTO " + table + " VALUES (NULL)", nil, "NOT NULL constraint failed"},
			{"SELECT ?, ?", []any{1}, ""},
		}
		for _, c := range cases {
			_, err := db.Exec(c.query, c.args...)
			if err == nil {
				t.Errorf("%q succeeded, want an error", c.query)
				continue
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("%q: error %q does not mention %q", c.query, err, c.want)
			}
		}
		// The connection still works after errors.
		if got := count(t, db, table); got != 0 {
			t.Fatalf("count = %d", got)
		}
	})
}

func TestConcurrentClients(t *testing.T) {
	tgt := startTarget(t)
	forEachTransport(t, func(t *testing.T, scheme string) {
		setup := openGo(t, tgt, scheme)
		table := uniqueName("conc_" + scheme)
		mustExec(t, setup, "CREATE TABLE "+table+" (worker INTEGER, i INTEGER)")
		const workers, perWorker = 20, 25
		var wg sync.WaitGroup
		errs := make(chan error, workers)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				db := openGo(t, tgt, scheme)
				for i := range perWorker {
					if _, err := db.Exec("INSERT INTO "+table+" VALUES (?, ?)", w, i); err != nil {
						errs <- fmt.Errorf("worker %d insert %d: %w", w, i, err)
						return
					}
					var n int64
					if err := db.QueryRow("SELECT count(*) FROM "+table+" WHERE worker = ?", w).Scan(&n); err != nil || n != int64(i+1) {
						errs <- fmt.Errorf("worker %d sees %d of its rows after %d inserts (err %v)", w, n, i+1, err)
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if got := count(t, setup, table); got != workers*perWorker {
			t.Fatalf("count = %d, want %d", got, workers*perWorker)
		}
	})
}
