package hranaclient

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/test/libsqlserver"
)

// Tests against a real libSQL server (dwk libsql, or DWK_TEST_LIBSQL_URL).

func startServer(t *testing.T) *Client {
	t.Helper()
	srv := libsqlserver.Start(t)
	return newClient(t, srv.URL, Config{AuthToken: srv.AuthToken})
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestServer(t *testing.T) {
	c := startServer(t)
	ctx := ctxFor(t)
	table := "hc_" + time.Now().Format("150405000000")
	if _, err := c.Execute(ctx, hrana.NewStmt("CREATE TABLE "+table+" (k TEXT PRIMARY KEY, v INTEGER NOT NULL)")); err != nil {
		t.Fatal(err)
	}

	t.Run("ExecuteOneRoundTrip", func(t *testing.T) {
		before := c.RoundTrips()
		res, err := c.Execute(ctx, hrana.NewStmt("SELECT ?, ?", hrana.Integer(7), hrana.Text("x")))
		if err != nil {
			t.Fatal(err)
		}
		if got := c.RoundTrips() - before; got != 1 {
			t.Errorf("Execute cost %d round trips, want 1", got)
		}
		if len(res.Rows) != 1 || res.Rows[0][0].Int != 7 || res.Rows[0][1].Text != "x" {
			t.Errorf("rows = %v", res.Rows)
		}
	})

	t.Run("BatchConditionsAndStepErrors", func(t *testing.T) {
		before := c.RoundTrips()
		ins := "INSERT INTO " + table + " (k, v) VALUES (?, ?)"
		res, err := c.Batch(ctx, []hrana.BatchStep{
			{Stmt: hrana.NewStmt("BEGIN IMMEDIATE")},
			{Condition: hrana.CondOK(0), Stmt: hrana.NewStmt(ins, hrana.Text("a"), hrana.Integer(1))},
			{Condition: hrana.CondOK(1), Stmt: hrana.NewStmt(ins, hrana.Text("a"), hrana.Integer(2))}, // duplicate key
			{Condition: hrana.CondOK(2), Stmt: hrana.NewStmt("COMMIT")},
			{Condition: hrana.CondNot(hrana.CondOK(3)), Stmt: hrana.NewStmt("ROLLBACK")},
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := c.RoundTrips() - before; got != 1 {
			t.Errorf("Batch cost %d round trips, want 1", got)
		}
		if e := StepError(res, 2); e == nil || e.Code != "SQLITE_CONSTRAINT" {
			t.Errorf("step 2 error = %v, want SQLITE_CONSTRAINT", e)
		}
		if StepRan(res, 3) || !StepRan(res, 4) {
			t.Errorf("COMMIT ran=%v ROLLBACK ran=%v; want skipped, run", StepRan(res, 3), StepRan(res, 4))
		}
		got, err := c.Execute(ctx, hrana.NewStmt("SELECT count(*) FROM "+table))
		if err != nil || got.Rows[0][0].Int != 0 {
			t.Errorf("rows after rolled back batch = %v, %v; want 0", got.Rows, err)
		}
	})

	t.Run("StatementError", func(t *testing.T) {
		_, err := c.Execute(ctx, hrana.NewStmt("SELECT * FROM no_such_table"))
		var he *Error
		if !errors.As(err, &he) || he.Status != 0 || he.Message == "" {
			t.Fatalf("err = %#v; want a statement *Error", err)
		}
		if errors.Is(err, ErrUnavailable) {
			t.Error("statement error counts as unavailable")
		}
	})

	t.Run("StreamTransaction", func(t *testing.T) {
		s := c.Stream()
		defer s.Close(ctx)
		if err := s.Sequence(ctx, "BEGIN"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Execute(ctx, hrana.NewStmt("INSERT INTO "+table+" VALUES ('s', 1)")); err != nil {
			t.Fatal(err)
		}
		inTx, err := s.Execute(ctx, hrana.NewStmt("SELECT count(*) FROM "+table+" WHERE k = 's'"))
		if err != nil || inTx.Rows[0][0].Int != 1 {
			t.Fatalf("inside the transaction: %v, %v; want 1", inTx.Rows, err)
		}
		outside, err := c.Execute(ctx, hrana.NewStmt("SELECT count(*) FROM "+table+" WHERE k = 's'"))
		if err != nil || outside.Rows[0][0].Int != 0 {
			t.Fatalf("outside the transaction: %v, %v; want 0", outside.Rows, err)
		}
		if _, err := s.Execute(ctx, hrana.NewStmt("COMMIT")); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Execute(ctx, hrana.NewStmt("SELECT 1")); !errors.Is(err, ErrStreamClosed) {
			t.Errorf("Execute after Close: err = %v, want ErrStreamClosed", err)
		}
		after, err := c.Execute(ctx, hrana.NewStmt("SELECT count(*) FROM "+table+" WHERE k = 's'"))
		if err != nil || after.Rows[0][0].Int != 1 {
			t.Errorf("after COMMIT: %v, %v; want 1", after.Rows, err)
		}
	})

	t.Run("StreamCloseRollsBack", func(t *testing.T) {
		s := c.Stream()
		if _, err := s.Batch(ctx, []hrana.BatchStep{
			{Stmt: hrana.NewStmt("BEGIN")},
			{Stmt: hrana.NewStmt("INSERT INTO " + table + " VALUES ('r', 1)")},
		}); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(ctx); err != nil {
			t.Fatal(err)
		}
		res, err := c.Execute(ctx, hrana.NewStmt("SELECT count(*) FROM "+table+" WHERE k = 'r'"))
		if err != nil || res.Rows[0][0].Int != 0 {
			t.Errorf("after Close without COMMIT: %v, %v; want 0", res.Rows, err)
		}
	})

	t.Run("UnknownNamespace", func(t *testing.T) {
		_, err := c.WithNamespace("no-such-ns").Execute(ctx, hrana.NewStmt("SELECT 1"))
		if !IsCode(err, hrana.CodeNamespaceNotFound) {
			t.Errorf("err = %v, want NAMESPACE_NOT_FOUND", err)
		}
	})
}
